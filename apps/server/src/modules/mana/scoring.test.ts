import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareIds,
  isoWeekStart,
  multiplierFor,
  nextUtcMidnight,
  overDailyLimit,
  postMana,
  weekKey,
  weekKeyMemo,
} from './scoring';

const weights = { like: 1, reply: 2, repost: 2, quote: 3 };
const engagement = fc.record({
  likes: fc.nat(100_000),
  replies: fc.nat(100_000),
  reposts: fc.nat(100_000),
  quotes: fc.nat(100_000),
});

describe('postMana', () => {
  it('follows DESIGN §4 with the default weights', () => {
    expect(postMana({ likes: 10, replies: 3, reposts: 2, quotes: 1 }, weights, 1)).toBe(10 + 6 + 4 + 3);
    expect(postMana({ likes: 10, replies: 3, reposts: 2, quotes: 1 }, weights, 3)).toBe(69);
  });

  it('is additive, monotonic and scales with the multiplier', () => {
    fc.assert(
      fc.property(engagement, engagement, fc.integer({ min: 1, max: 5 }), (a, b, m) => {
        const sum = {
          likes: a.likes + b.likes,
          replies: a.replies + b.replies,
          reposts: a.reposts + b.reposts,
          quotes: a.quotes + b.quotes,
        };
        expect(postMana(sum, weights, m)).toBe(postMana(a, weights, m) + postMana(b, weights, m));
        expect(postMana(a, weights, m)).toBe(m * postMana(a, weights, 1));
        expect(postMana({ ...a, likes: a.likes + 1 }, weights, m)).toBeGreaterThan(postMana(a, weights, m));
      }),
    );
  });
});

describe('multiplierFor', () => {
  it('triples only posts made from the moment of linking', () => {
    const linkedAt = new Date('2026-11-10T12:00:00Z');
    expect(multiplierFor(new Date('2026-11-10T11:59:59Z'), linkedAt, 3)).toBe(1);
    expect(multiplierFor(linkedAt, linkedAt, 3)).toBe(3);
    expect(multiplierFor(new Date('2026-11-11T00:00:00Z'), null, 3)).toBe(1);
  });
});

describe('daily limit', () => {
  it('counts the first N posts of each UTC day, across midnight', () => {
    const at = (iso: string, id: string) => ({ id, createdAt: new Date(iso) });
    const posts = [
      at('2026-11-21T23:58:00Z', '1'),
      at('2026-11-21T23:59:00Z', '2'),
      at('2026-11-21T23:59:30Z', '3'),
      at('2026-11-22T00:00:00Z', '4'),
      at('2026-11-22T00:01:00Z', '5'),
    ];
    expect([...overDailyLimit(posts, 2)]).toEqual(['3']);
    expect(nextUtcMidnight(new Date('2026-11-21T23:59:30Z')).toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });

  it('never keeps more than N a day and keeps exactly the earliest', () => {
    const post = fc.record({
      id: fc.bigInt({ min: 1n, max: 10n ** 19n }).map(String),
      createdAt: fc.date({ min: new Date('2026-01-01'), max: new Date('2026-01-08'), noInvalidDate: true }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(post, { selector: (p) => p.id, maxLength: 60 }),
        fc.nat(8),
        (posts, limit) => {
          const over = overDailyLimit(posts, limit);
          const kept = posts.filter((p) => !over.has(p.id));
          const perDay = new Map<string, number>();
          for (const p of kept)
            perDay.set(
              p.createdAt.toISOString().slice(0, 10),
              (perDay.get(p.createdAt.toISOString().slice(0, 10)) ?? 0) + 1,
            );
          for (const count of perDay.values()) expect(count).toBeLessThanOrEqual(limit);
          for (const o of posts.filter((p) => over.has(p.id))) {
            const day = o.createdAt.toISOString().slice(0, 10);
            // Every post over the limit comes after every kept post of its day.
            for (const k of kept.filter((p) => p.createdAt.toISOString().slice(0, 10) === day)) {
              expect(
                k.createdAt.getTime() < o.createdAt.getTime() ||
                  (k.createdAt.getTime() === o.createdAt.getTime() && compareIds(k.id, o.id) < 0),
              ).toBe(true);
            }
          }
        },
      ),
    );
  });
});

describe('isoWeekStart', () => {
  it('is Monday 00:00 UTC', () => {
    expect(isoWeekStart(new Date('2026-11-22T23:59:59Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(isoWeekStart(new Date('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(isoWeekStart(new Date('2027-01-01T12:00:00Z')).toISOString()).toBe('2026-12-28T00:00:00.000Z');
  });

  it('is a Monday at most 7 days back, for any instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (at) => {
          const start = isoWeekStart(at);
          expect(start.getUTCDay()).toBe(1);
          expect(start.getUTCHours() + start.getUTCMinutes() + start.getUTCSeconds()).toBe(0);
          expect(at.getTime() - start.getTime()).toBeGreaterThanOrEqual(0);
          expect(at.getTime() - start.getTime()).toBeLessThan(7 * 86_400_000);
        },
      ),
    );
  });
});

describe('weekKeyMemo', () => {
  it("gives weekKey's answer for any time, across week boundaries and when time moves back", () => {
    const weekOf = weekKeyMemo();
    const sundayNight = Date.parse('2026-11-22T23:59:59.999Z');
    const monday = Date.parse('2026-11-23T00:00:00.000Z');
    for (const at of [
      Date.parse('2026-11-18T12:00:00Z'),
      sundayNight,
      monday,
      monday + 1,
      Date.parse('2026-11-29T23:59:59.999Z'),
      Date.parse('2026-11-30T00:00:00Z'),
      sundayNight,
      Date.parse('2025-01-01T00:00:00Z'),
      monday,
    ]) {
      expect(weekOf(at)).toBe(weekKey(new Date(at)));
    }
    expect(weekOf(sundayNight)).toBe('2026-11-16');
    expect(weekOf(monday)).toBe('2026-11-23');
  });
});
