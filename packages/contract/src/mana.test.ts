import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leaderboardQuerySchema } from './mana';

describe('leaderboardQuerySchema', () => {
  it('defaults to 20 rows of all time, from the top, without search', () => {
    expect(leaderboardQuerySchema.parse({})).toEqual({ limit: 20, offset: 0, search: '', weekly: false });
  });

  it('takes limit 1–100 only, as whole numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (limit) => {
        const parsed = leaderboardQuerySchema.safeParse({ limit: String(limit) });
        expect(parsed.success).toBe(limit >= 1 && limit <= 100);
      }),
    );
    expect(leaderboardQuerySchema.safeParse({ limit: '2.5' }).success).toBe(false);
    expect(leaderboardQuerySchema.safeParse({ limit: ['1', '2'] }).success).toBe(false);
  });

  it('drops control characters from search (PostgreSQL refuses a NUL in text)', () => {
    expect(leaderboardQuerySchema.parse({ search: '\u0000' }).search).toBe('');
    expect(leaderboardQuerySchema.parse({ search: 'ru\u0000ne\t_fox\u007f' }).search).toBe('rune_fox');
  });

  it('normalises search: trimmed, lower-cased, a leading @ ignored', () => {
    expect(leaderboardQuerySchema.parse({ search: '  @Rune_Fox ', weekly: 'true' })).toMatchObject({
      search: 'rune_fox',
      weekly: true,
    });
    expect(leaderboardQuerySchema.safeParse({ weekly: 'yes' }).error?.issues[0]?.message).toBe(
      'weekly must be true or false',
    );
  });
});
