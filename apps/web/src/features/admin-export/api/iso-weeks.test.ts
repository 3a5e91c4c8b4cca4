import { describe, expect, it } from 'vitest';
import { isoWeekOf } from '@manaboard/contract/admin';
import { recentWeeks } from './iso-weeks';

describe('ISO weeks for the export', () => {
  it('names weeks as ISO 8601 does, across year ends', () => {
    expect(isoWeekOf(new Date('2026-11-18T12:00:00Z'))).toBe('2026-W47');
    expect(isoWeekOf(new Date('2026-11-16T00:00:00Z'))).toBe('2026-W47');
    expect(isoWeekOf(new Date('2026-11-15T23:59:59Z'))).toBe('2026-W46');
    // 1 January 2027 is a Friday: it belongs to the last week of 2026, which is week 53.
    expect(isoWeekOf(new Date('2027-01-01T12:00:00Z'))).toBe('2026-W53');
    // 29 December 2025 is a Monday in week 1 of 2026.
    expect(isoWeekOf(new Date('2025-12-29T00:00:00Z'))).toBe('2026-W01');
  });

  it('lists the weeks before this one, last week first, with their Mondays', () => {
    expect(recentWeeks(new Date('2026-11-18T12:00:00Z'), 3)).toEqual([
      { week: '2026-W46', monday: '2026-11-09' },
      { week: '2026-W45', monday: '2026-11-02' },
      { week: '2026-W44', monday: '2026-10-26' },
    ]);
    expect(recentWeeks(new Date('2026-01-05T00:00:00Z'), 2)).toEqual([
      { week: '2026-W01', monday: '2025-12-29' },
      { week: '2025-W52', monday: '2025-12-22' },
    ]);
  });
});
