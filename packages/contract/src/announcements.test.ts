import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { announcementInputSchema } from './admin-announcements';
import { announcementSchema, announcementsQuerySchema } from './announcements';

describe('announcementsQuerySchema', () => {
  it('defaults to page 1 and limit 50', () => {
    expect(announcementsQuerySchema.parse({})).toEqual({ page: 1, limit: 50 });
  });

  it('accepts exactly whole pages ≥ 1 and limits in 1..100, as query strings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 100_000 }),
        fc.integer({ min: -1000, max: 1000 }),
        (page, limit) => {
          const result = announcementsQuerySchema.safeParse({ page: String(page), limit: String(limit) });
          expect(result.success).toBe(page >= 1 && limit >= 1 && limit <= 100);
        },
      ),
    );
  });

  it('rejects fractions, words and unknown keys', () => {
    for (const query of [{ page: '1.5' }, { limit: 'ten' }, { page: '' }, { other: '1' }]) {
      expect(announcementsQuerySchema.safeParse(query).success).toBe(false);
    }
  });
});

describe('announcement schemas', () => {
  it('require an offset ISO date and allow an optional http(s) url', () => {
    const base = {
      id: 'a',
      title: 't',
      content: 'c',
      createdAt: '2026-11-22T10:00:00.000Z',
      status: 'published',
    };
    expect(announcementSchema.safeParse(base).success).toBe(true);
    expect(announcementSchema.safeParse({ ...base, createdAt: 'yesterday' }).success).toBe(false);
    expect(
      announcementInputSchema.safeParse({ title: 't', content: 'c', url: 'javascript:alert(1)' }).success,
    ).toBe(false);
    expect(announcementInputSchema.safeParse({ title: ' ', content: 'c' }).success).toBe(false);
  });
});
