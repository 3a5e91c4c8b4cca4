import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { freeKeys } from './admin-json';
import { fairnessFlagSchema } from './admin-fairness';

describe('freeKeys (z.record without its code)', () => {
  const counts = freeKeys(z.number());

  it('keeps every key and checks every value', () => {
    expect(counts.parse({ posts: 3, authors: 0 })).toEqual({ posts: 3, authors: 0 });
    expect(counts.parse({})).toEqual({});
    expect(counts.safeParse({ posts: 'three' }).success).toBe(false);
  });

  it('refuses what is not an object of keys, as z.record does', () => {
    for (const value of [[1, 2], null, 'posts', 3, undefined])
      expect(counts.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it('takes any JSON value under z.unknown()', () => {
    const details = { before: { dailyLimit: 5 }, after: null, list: [1, 'a'] };
    expect(freeKeys(z.unknown()).parse(details)).toEqual(details);
  });
});

describe('fairnessFlagSchema score', () => {
  const flag = {
    subjectId: '1',
    handle: 'alice',
    kind: 'ring',
    reason: 'why',
    evidence: { cluster: ['1', '2'] },
    firstFlaggedAt: '2026-11-24T00:00:00.000Z',
    computedAt: '2026-11-24T00:00:00.000Z',
    review: null,
  };

  it('is between 0 and 1', () => {
    for (const score of [0, 0.5, 1])
      expect(fairnessFlagSchema.safeParse({ ...flag, score }).success).toBe(true);
    for (const score of [-0.1, 1.01])
      expect(fairnessFlagSchema.safeParse({ ...flag, score }).success).toBe(false);
  });
});
