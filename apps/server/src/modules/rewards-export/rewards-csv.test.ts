import { describe, expect, it } from 'vitest';
import { isoWeekMonday, isoWeekOf } from './iso-week';
import { csvCell } from '../audit/csv';
import { rewardsCsv } from './rewards-csv';

describe('rewards CSV', () => {
  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    for (const lead of ['+', '-', '@', '\t', '\r'])
      expect(csvCell(`${lead}1`).startsWith(`'`) || csvCell(`${lead}1`).startsWith(`"'`)).toBe(true);
    expect(csvCell('plain_handle')).toBe('plain_handle');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(-5)).toBe('-5');
    expect(
      rewardsCsv([{ rank: 1, handle: '@ann', networkUserId: '42', mana: 10, posts: 2, referrals: 1 }]),
    ).toBe("rank,handle,network_user_id,mana,posts,referrals\r\n1,'@ann,42,10,2,1\r\n");
  });
});

describe('ISO weeks', () => {
  it('maps weeks to their Monday and back', () => {
    expect(isoWeekMonday('2026-W47').toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(isoWeekMonday('2026-W01').toISOString()).toBe('2025-12-29T00:00:00.000Z');
    expect(isoWeekMonday('2020-W53').toISOString()).toBe('2020-12-28T00:00:00.000Z');
    expect(() => isoWeekMonday('2021-W53')).toThrow(/no week 53/);
    expect(() => isoWeekMonday('2026-47')).toThrow(/not an ISO week/);
    expect(isoWeekOf(new Date('2027-01-01T10:00:00Z'))).toBe('2026-W53');
    expect(isoWeekOf(new Date('2026-11-22T23:59:59Z'))).toBe('2026-W47');
    for (let t = Date.UTC(2019, 0, 1); t < Date.UTC(2031, 0, 1); t += 86_400_000 * 3) {
      const week = isoWeekOf(new Date(t));
      const monday = isoWeekMonday(week).getTime();
      expect(t >= monday && t < monday + 7 * 86_400_000).toBe(true);
    }
  });
});
