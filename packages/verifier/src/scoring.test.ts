import { describe, expect, it } from 'vitest';
import { idOrder, manaOfPost, postsOverDailyLimit, ranksOf } from './scoring';
import { faultBound } from './sampling';

const weights = { like: 1, quote: 3, reply: 2, repost: 2 };

describe("the verifier's scoring", () => {
  it('weighs the counts and multiplies, and gives 0 over the limit or when not live', () => {
    const counts = { likes: 3, quotes: 1, replies: 2, reposts: 1 };
    expect(manaOfPost({ counts, weights, multiplier: 1, overDailyLimit: false, live: true })).toBe(
      3 + 3 + 4 + 2,
    );
    expect(manaOfPost({ counts, weights, multiplier: 3, overDailyLimit: false, live: true })).toBe(36);
    expect(manaOfPost({ counts, weights, multiplier: 3, overDailyLimit: true, live: true })).toBe(0);
    expect(manaOfPost({ counts, weights, multiplier: 3, overDailyLimit: false, live: false })).toBe(0);
  });

  it('puts the posts of a UTC day past the daily limit over it, by time then id', () => {
    const day = (h: number) => `2026-11-24T${String(h).padStart(2, '0')}:00:00.000Z`;
    const over = postsOverDailyLimit([
      { post: '10', createdAt: day(5), dailyLimit: 2 },
      { post: '9', createdAt: day(5), dailyLimit: 2 },
      { post: '1', createdAt: day(1), dailyLimit: 2 },
      { post: '2', createdAt: '2026-11-25T00:00:00.000Z', dailyLimit: 2 },
    ]);
    // '9' comes before '10' (compareIds), so '10' is the third post of the 24th.
    expect([...over]).toEqual(['10']);
  });

  it('orders ids shorter first, and ranks by Mana, first tracked post, then author', () => {
    expect(['10', '9', 'b', 'ab'].sort(idOrder)).toEqual(['9', 'b', '10', 'ab']);
    const ranks = ranksOf([
      { author: 'did:plc:b', mana: 5, firstTrackedAt: '2026-11-24T00:00:00.000Z' },
      { author: 'did:plc:a', mana: 5, firstTrackedAt: '2026-11-24T00:00:00.000Z' },
      { author: 'did:plc:c', mana: 5, firstTrackedAt: '2026-11-23T00:00:00.000Z' },
      { author: 'did:plc:d', mana: 9, firstTrackedAt: '2026-11-25T00:00:00.000Z' },
    ]);
    expect([...ranks]).toEqual([
      ['did:plc:d', 1],
      ['did:plc:c', 2],
      ['did:plc:a', 3],
      ['did:plc:b', 4],
    ]);
  });

  it('bounds the faulty records a clean sample leaves possible: ln(0.05) / ln(1 − p)', () => {
    expect(faultBound(0.05)).toBe(58);
    expect(faultBound(0.5)).toBe(4);
    expect(faultBound(1)).toBe(0);
  });
});
