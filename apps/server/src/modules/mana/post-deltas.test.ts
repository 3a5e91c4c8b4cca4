import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import type { Database } from '../../db/schema';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { activeRules } from '../programme/programme.service';
import { upsertAuthors } from './authors.repository';
import { applyMetricsBatch } from './ingest.service';
import { upsertPosts } from './posts.repository';
import { rebuildAllTotals, recomputeDirtyTotals } from './totals.service';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-20T12:00:00Z');

/** Every row the totals job writes: the board (with ranks) and each post's line. */
async function ledger(db: Kysely<Database>) {
  const { rows: board } = await sql`
    select period, author_id, mana, posts, likes, replies, reposts, quotes, rank from mana_totals
    order by period, author_id
  `.execute(db);
  const { rows: lines } = await sql`
    select id, mana, over_limit, multiplier, mana_fixed from posts order by id
  `.execute(db);
  return { board, lines };
}

const queued = async (db: Kysely<Database>) =>
  Number(
    (
      await db
        .selectFrom('post_metric_changes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirst()
    )?.n,
  );

// A refresh: some posts get new metrics (some leaving the refresh window), some are gone.
const change = fc.record({
  post: fc.nat(39),
  likes: fc.nat(50),
  replies: fc.nat(9),
  reposts: fc.nat(5),
  quotes: fc.nat(3),
  final: fc.boolean(),
  missing: fc.constantFrom(false, false, false, false, true),
});
const refresh = fc.array(change, { minLength: 1, maxLength: 25 });

describe.each(testDatabaseKinds())('per-post deltas of the totals job (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  async function seed(db: Kysely<Database>) {
    await sql`truncate posts, authors, mana_totals, post_metric_changes`.execute(db);
    const authors = [1, 2, 3, 4].map((i) => ({
      id: `10${i}`,
      handle: `author_${i}`,
      displayName: `Author ${i}`,
      avatarUrl: null,
      firstTrackedAt: new Date(NOW.getTime() - 9 * 24 * HOUR),
    }));
    await upsertAuthors(db, authors, NOW);
    // 40 posts over ten days, several a day per author, so the daily limit and two weeks are in play.
    await upsertPosts(
      db,
      Array.from({ length: 40 }, (_, i) => ({
        id: String(5000 + i),
        authorId: `10${(i % 4) + 1}`,
        text: '#ManaBoard',
        createdAt: new Date(NOW.getTime() - (i % 10) * 24 * HOUR - i * 60_000),
        kind: 'original' as const,
        likes: i % 7,
        replies: i % 3,
        reposts: i % 2,
        quotes: 0,
      })),
      NOW,
    );
  }

  it('equal a full rebuild after any sequence of refreshes, and use the queue for metric-only changes', async () => {
    const db = database.db;
    const active = await activeRules(db);
    const { rules } = active;
    await fc.assert(
      fc.asyncProperty(fc.array(refresh, { minLength: 1, maxLength: 4 }), async (refreshes) => {
        await seed(db);
        await recomputeDirtyTotals(db, active, NOW);
        let step = 0;
        for (const batch of refreshes) {
          step++;
          const at = new Date(NOW.getTime() + step * HOUR);
          const ids = [...new Set(batch.map((c) => String(5000 + c.post)))];
          const open = await db
            .selectFrom('posts')
            .select(['id', 'author_id', 'created_at'])
            .where('id', 'in', ids)
            .where('final', '=', false)
            .execute();
          const asked = open.map((p) => ({ id: p.id, authorId: p.author_id, createdAt: p.created_at }));
          const byId = new Map(batch.map((c) => [String(5000 + c.post), c]));
          const answered = asked.map((p) => ({ post: p, change: byId.get(p.id) }));
          // A post "final" in the answer is one the refresh finds past its window (as the job decides).
          const rulesAt = { ...rules, refreshWindowDays: answered.some((a) => a.change?.final) ? 0 : 30 };
          await applyMetricsBatch(
            db,
            rulesAt,
            asked,
            {
              posts: answered
                .filter((a) => !a.change?.missing)
                .map(({ post, change: c }) => ({
                  id: post.id,
                  authorId: post.authorId,
                  text: '',
                  createdAt: post.createdAt,
                  kind: 'original' as const,
                  referencedPostId: null,
                  conversationId: null,
                  metrics: {
                    likes: c?.likes ?? 0,
                    replies: c?.replies ?? 0,
                    reposts: c?.reposts ?? 0,
                    quotes: c?.quotes ?? 0,
                  },
                })),
              missing: answered
                .filter((a) => a.change?.missing)
                .map(({ post }) => ({ id: post.id, reason: 'deleted' as const, detail: 'gone' })),
            },
            { job: 'refresh', value: { step } },
            at,
          );
          await recomputeDirtyTotals(db, active, at);
          expect(await queued(db)).toBe(0);
        }
        const incremental = await ledger(db);
        await rebuildAllTotals(db, active, new Date(NOW.getTime() + (step + 1) * HOUR));
        expect(await ledger(db)).toEqual(incremental);
      }),
      { numRuns: kind === 'pglite' ? 15 : 25 },
    );
  }, 120_000);

  it('queues a metric-only change of a live post instead of marking its author for a full recompute', async () => {
    const db = database.db;
    const active = await activeRules(db);
    const { rules } = active;
    await seed(db);
    await recomputeDirtyTotals(db, active, NOW);
    const post = await db.selectFrom('posts').selectAll().where('id', '=', '5004').executeTakeFirstOrThrow();
    const before = await db
      .selectFrom('mana_totals')
      .selectAll()
      .where('author_id', '=', post.author_id)
      .where('period', '=', 'all')
      .executeTakeFirstOrThrow();
    await applyMetricsBatch(
      db,
      rules,
      [{ id: post.id, authorId: post.author_id, createdAt: post.created_at }],
      {
        posts: [
          {
            id: post.id,
            authorId: post.author_id,
            text: '',
            createdAt: post.created_at,
            kind: 'original',
            referencedPostId: null,
            conversationId: null,
            metrics: {
              likes: post.likes + 10,
              replies: post.replies,
              reposts: post.reposts,
              quotes: post.quotes,
            },
          },
        ],
        missing: [],
      },
      { job: 'refresh', value: {} },
      NOW,
    );
    const author = await db
      .selectFrom('authors')
      .select('totals_dirty')
      .where('id', '=', post.author_id)
      .executeTakeFirstOrThrow();
    expect(author.totals_dirty).toBe(false);
    expect(await db.selectFrom('post_metric_changes').selectAll().execute()).toEqual([
      {
        post_id: post.id,
        author_id: post.author_id,
        likes: post.likes,
        replies: post.replies,
        reposts: post.reposts,
        quotes: post.quotes,
      },
    ]);
    await recomputeDirtyTotals(db, active, NOW);
    const after = await db
      .selectFrom('mana_totals')
      .selectAll()
      .where('author_id', '=', post.author_id)
      .where('period', '=', 'all')
      .executeTakeFirstOrThrow();
    expect(after.likes).toBe(before.likes + 10);
    const line = post.over_limit ? 0 : 10 * rules.weights.like * post.multiplier;
    expect(after.mana).toBe(before.mana + line);
    expect(await queued(db)).toBe(0);
  });
});
