import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import type { Database } from '../../db/schema';
import { openTestDatabase, testDatabaseKinds, type TestDatabaseKind } from '../../test/test-database';
import { activeRules } from '../programme/programme.service';
import { markAuthorsDirty, upsertAuthors } from './authors.repository';
import { applyMetrics, upsertPosts } from './posts.repository';
import { rebuildAllTotals, recomputeDirtyTotals } from './totals.service';

const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;

/** The board (with ranks) and each post's line. */
async function ledger(db: Kysely<Database>) {
  const { rows: board } = await sql`
    select period, author_id, mana, posts, likes, replies, reposts, quotes, rank from mana_totals
    order by period, author_id
  `.execute(db);
  const { rows: lines } = await sql`select id, mana, over_limit, multiplier from posts order by id`.execute(
    db,
  );
  return { board, lines };
}

const author = (id: string) => ({
  id,
  handle: `a${id}`,
  displayName: `A ${id}`,
  avatarUrl: null,
  firstTrackedAt: new Date(NOW.getTime() - 48 * HOUR),
});
const post = (id: string, authorId: string, hoursAgo: number, likes: number) => ({
  id,
  authorId,
  text: '#ManaBoard',
  createdAt: new Date(NOW.getTime() - hoursAgo * HOUR),
  kind: 'original' as const,
  likes,
  replies: 0,
  reposts: 0,
  quotes: 0,
});
const likes = (id: string, n: number) => ({ id, likes: n, replies: 0, reposts: 0, quotes: 0, final: false });

/**
 * A stream batch's transaction held open on its own connection (`write`), a totals run started meanwhile, and the
 * batch committed once that run waits for it (PostgreSQL: it shows as blocked by the batch's backend; the embedded
 * database runs one transaction at a time, so there the run simply follows the batch). Resolves when both ended.
 */
async function interleave(
  db: Kysely<Database>,
  kind: TestDatabaseKind,
  write: (trx: Kysely<Database>) => Promise<void>,
  run: () => Promise<unknown>,
) {
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  let opened!: (pid: number) => void;
  const open = new Promise<number>((resolve) => (opened = resolve));
  const batch = db.transaction().execute(async (trx) => {
    await write(trx);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    opened(Number(rows[0]?.pid));
    await committed;
  });
  const pid = await open;
  let ran = false;
  const totals = run().finally(() => (ran = true));
  if (kind === 'postgres') {
    const deadline = Date.now() + 3_000;
    // Until the run waits for the batch (or, if it never needs to, ends without it).
    while (!ran) {
      const { rows } = await sql<{ n: string }>`
        select count(*) as n from pg_stat_activity where ${pid}::integer = any(pg_blocking_pids(pid))
      `.execute(db);
      if (Number(rows[0]?.n) > 0) break;
      if (Date.now() > deadline) throw new Error('the totals run never waited for the batch');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } else {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  commit();
  await Promise.all([batch, totals]);
}

/**
 * A stream batch commits while a totals run is under way (issue 32's fault runs: the board ≠ a rebuild on
 * PostgreSQL). The run must count what the batch wrote, now or at its next run, and never drop it: afterwards
 * one more run and a full rebuild give the same board.
 */
describe.each(testDatabaseKinds())('totals runs and stream batches at once (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  async function seed(db: Kysely<Database>) {
    await sql`truncate posts, authors, mana_totals, post_metric_changes`.execute(db);
    await upsertAuthors(db, [author('101'), author('102')], NOW);
    await upsertPosts(db, [post('5001', '101', 30, 3), post('5002', '102', 20, 4)], NOW);
    const active = await activeRules(db);
    await recomputeDirtyTotals(db, active, NOW);
    return active;
  }

  async function expectBoardEqualsRebuild(
    db: Kysely<Database>,
    active: Awaited<ReturnType<typeof activeRules>>,
  ) {
    await recomputeDirtyTotals(db, active, NOW);
    const board = await ledger(db);
    await rebuildAllTotals(db, active, NOW);
    expect(board).toEqual(await ledger(db));
  }

  it('adds a queued like whose post a batch counts again while the run reads it', async () => {
    const db = database.db;
    const active = await seed(db);
    // A like already queued (3 → 5 counted as 3), then a batch that brings three more while the run applies the queue.
    await applyMetrics(db, [likes('5001', 5)], NOW);
    await interleave(
      db,
      kind,
      async (trx) => void (await applyMetrics(trx, [likes('5001', 8)], NOW)),
      () => recomputeDirtyTotals(db, active, NOW),
    );
    await recomputeDirtyTotals(db, active, NOW);
    const row = await db
      .selectFrom('mana_totals')
      .select('likes')
      .where('period', '=', 'all')
      .where('author_id', '=', '101')
      .executeTakeFirstOrThrow();
    expect(row.likes).toBe(8);
    await expectBoardEqualsRebuild(db, active);
  });

  it('recomputes an author again whose new post and like a batch stores while the run recomputes them', async () => {
    const db = database.db;
    const active = await seed(db);
    await markAuthorsDirty(db, ['101']);
    await interleave(
      db,
      kind,
      async (trx) => {
        // What a stream batch stores: the author of a new post (already flagged), the post, a like on an older one.
        await upsertAuthors(trx, [author('101')], NOW);
        await upsertPosts(trx, [post('5003', '101', 1, 0)], NOW);
        await applyMetrics(trx, [likes('5001', 6)], NOW);
      },
      () => recomputeDirtyTotals(db, active, NOW),
    );
    await recomputeDirtyTotals(db, active, NOW);
    const row = await db
      .selectFrom('mana_totals')
      .select(['likes', 'posts'])
      .where('period', '=', 'all')
      .where('author_id', '=', '101')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ likes: 6, posts: 2 });
    await expectBoardEqualsRebuild(db, active);
  });
});
