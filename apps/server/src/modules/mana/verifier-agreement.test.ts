import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaOfPost, postsOverDailyLimit, ranksOf } from '@manaboard/verifier';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import type { DatabaseHandle } from '../../db/database';
import { compareIds, multiplierFor, overDailyLimit, postMana } from './scoring';
import { rerank } from './totals.repository';

/**
 * The verifier (packages/verifier) recomputes Mana with code of its own (DESIGN §9); this file checks on random
 * worlds that it agrees with the server's scoring: post Mana, the daily limit, the multiplier, the id order, and
 * ranks as the board's rerank query orders them, on each database kind.
 */
const weights = fc.record({ like: fc.nat(9), quote: fc.nat(9), reply: fc.nat(9), repost: fc.nat(9) });
const counts = fc.record({
  likes: fc.nat(500),
  quotes: fc.nat(50),
  replies: fc.nat(50),
  reposts: fc.nat(50),
});
// Ids as the networks write them: X's decimal snowflakes (where length decides first) and Bluesky's AT URIs.
const id = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 19n }).map(String),
  fc
    .stringMatching(/^[a-z2-7]{3,13}$/)
    .map((rkey) => `at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/app.bsky.feed.post/${rkey}`),
);
const WEEK = Date.UTC(2026, 10, 23);
const instant = fc.integer({ min: 0, max: 7 * 86_400 - 1 }).map((s) => new Date(WEEK + s * 1000));

describe("the verifier's scoring agrees with the server's", () => {
  it('on post Mana, with the multiplier the server gives', () => {
    fc.assert(
      fc.property(
        counts,
        weights,
        fc.integer({ min: 1, max: 5 }),
        instant,
        fc.option(instant),
        fc.boolean(),
        fc.boolean(),
        (c, w, linked, at, linkedAt, over, live) => {
          const multiplier = multiplierFor(at, linkedAt ?? null, linked);
          expect([1, linked]).toContain(multiplier);
          const server = live && !over ? postMana(c, w, multiplier) : 0;
          expect(manaOfPost({ counts: c, weights: w, multiplier, overDailyLimit: over, live })).toBe(server);
        },
      ),
    );
  });

  it('on which posts are over the daily limit', () => {
    const posts = fc.uniqueArray(
      fc.record({ id, createdAt: fc.oneof(instant, fc.constant(new Date(WEEK + 3_600_000))) }),
      {
        selector: (p) => p.id,
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(posts, fc.nat(8), (list, limit) => {
        const server = overDailyLimit(list, limit);
        const verifier = postsOverDailyLimit(
          list.map((p) => ({ post: p.id, createdAt: p.createdAt.toISOString(), dailyLimit: limit })),
        );
        expect([...verifier].sort(compareIds)).toEqual([...server].sort(compareIds));
      }),
    );
  });

  describe.each(testDatabaseKinds())('on ranks, as the board reranks them (%s)', (kind) => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    }, 60_000);
    afterAll(async () => {
      await database?.close();
    });

    it('on random boards with ties', async () => {
      // Authors from a small alphabet with dots and dashes, where collations other than code units differ.
      const author = fc.stringMatching(/^did:(plc:[a-z2-7]{2,4}|web:[a-zA-Z.-]{1,4})$/);
      const board = fc.uniqueArray(
        fc.record({ author, mana: fc.nat(4), first: fc.integer({ min: 0, max: 2 }) }),
        { selector: (m) => m.author, minLength: 1, maxLength: 12 },
      );
      await fc.assert(
        fc.asyncProperty(board, async (members) => {
          const db = database.db;
          await db.deleteFrom('mana_totals').execute();
          await db.deleteFrom('authors').execute();
          const firstTracked = (m: (typeof members)[number]) => new Date(WEEK + m.first * 86_400_000);
          await db
            .insertInto('authors')
            .values(
              members.map((m) => ({
                id: m.author,
                handle: m.author,
                display_name: '',
                avatar_url: null,
                first_tracked_at: firstTracked(m),
                updated_at: new Date(WEEK),
              })),
            )
            .execute();
          await db
            .insertInto('mana_totals')
            .values(
              members.map((m) => ({
                period: 'w',
                author_id: m.author,
                mana: m.mana,
                posts: 0,
                likes: 0,
                replies: 0,
                reposts: 0,
                quotes: 0,
                first_tracked_at: firstTracked(m),
              })),
            )
            .execute();
          await rerank(db, ['w']);
          const server = await db
            .selectFrom('mana_totals')
            .select(['author_id', 'rank'])
            .orderBy('rank')
            .execute();
          const verifier = ranksOf(
            members.map((m) => ({
              author: m.author,
              mana: m.mana,
              firstTrackedAt: firstTracked(m).toISOString(),
            })),
          );
          expect(server.map((r) => [r.author_id, r.rank])).toEqual([...verifier].map(([a, r]) => [a, r]));
        }),
        { numRuns: 40 },
      );
    }, 120_000);
  });
});
