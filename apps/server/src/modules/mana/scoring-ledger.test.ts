import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodTotals, postMana, scoreAuthorPosts, weekKey, type ScorablePost } from './scoring';

const rules = { weights: { like: 1, reply: 2, repost: 2, quote: 3 }, linkedMultiplier: 3, dailyLimit: 5 };
const DAY = 86_400_000;
const BASE = Date.parse('2026-11-02T00:00:00Z');

const post = fc.record({
  id: fc.bigInt({ min: 1n, max: 10n ** 18n }).map(String),
  createdAt: fc.integer({ min: 0, max: 21 * DAY - 1 }).map((ms) => new Date(BASE + ms)),
  likes: fc.nat(1000),
  replies: fc.nat(100),
  reposts: fc.nat(100),
  quotes: fc.nat(100),
  live: fc.boolean(),
  fixed: fc.constant(false),
  mana: fc.constant(0),
  overLimit: fc.constant(false),
  multiplier: fc.constant(1),
});
const posts = fc.uniqueArray(post, { selector: (p) => p.id, maxLength: 40 });

describe('scoreAuthorPosts', () => {
  it('gives every post its line: 0 over the limit or when gone, else multiplier × weighted engagement', () => {
    fc.assert(
      fc.property(
        posts,
        fc.option(fc.integer({ min: 0, max: 21 * DAY }), { nil: null }),
        (list, linkedMs) => {
          const linkedAt = linkedMs === null ? null : new Date(BASE + linkedMs);
          const scored = scoreAuthorPosts(list, rules, linkedAt);
          list.forEach((p, i) => {
            const line = scored[i];
            const multiplier = linkedAt && p.createdAt >= linkedAt ? 3 : 1;
            expect(line?.multiplier).toBe(multiplier);
            expect(line?.mana).toBe(p.live && !line?.overLimit ? postMana(p, rules.weights, multiplier) : 0);
          });
          // A deleted post keeps its daily slot: deleting never lets a later post of the day in.
          const revived = scoreAuthorPosts(
            list.map((p) => ({ ...p, live: true })),
            rules,
            linkedAt,
          );
          expect(revived.map((l) => l.overLimit)).toEqual(scored.map((l) => l.overLimit));
        },
      ),
    );
  });

  it('leaves fixed (final) lines exactly as they were', () => {
    const fixed: ScorablePost = {
      id: '1',
      createdAt: new Date(BASE),
      likes: 500,
      replies: 0,
      reposts: 0,
      quotes: 0,
      live: true,
      fixed: true,
      mana: 7,
      overLimit: false,
      multiplier: 1,
    };
    expect(scoreAuthorPosts([fixed], rules, new Date(0))).toEqual([
      { id: '1', mana: 7, overLimit: false, multiplier: 1 },
    ]);
  });
});

describe('periodTotals', () => {
  it('all time is the sum of the weeks, and every post lands in the week it was created', () => {
    fc.assert(
      fc.property(posts, (list) => {
        const lines = list.map((p) => ({ ...p, mana: p.likes }));
        const totals = periodTotals(lines);
        const all = totals.get('all') ?? { mana: 0, posts: 0, likes: 0, replies: 0, reposts: 0, quotes: 0 };
        const weeks = [...totals.entries()].filter(([key]) => key !== 'all').map(([, t]) => t);
        for (const field of ['mana', 'posts', 'likes', 'replies', 'reposts', 'quotes'] as const) {
          expect(weeks.reduce((sum, t) => sum + t[field], 0)).toBe(all[field]);
        }
        expect(all.posts).toBe(list.filter((p) => p.live).length);
        for (const p of list) expect(totals.has(weekKey(p.createdAt))).toBe(true);
      }),
    );
  });

  it('rolls over at Monday 00:00 UTC', () => {
    expect(weekKey(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-16');
    expect(weekKey(new Date('2026-11-23T00:00:00.000Z'))).toBe('2026-11-23');
  });
});
