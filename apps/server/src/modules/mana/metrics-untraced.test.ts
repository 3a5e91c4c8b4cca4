import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { upsertAuthors } from './authors.repository';
import { applyMetrics, upsertPosts } from './posts.repository';

const SEEN = new Date('2026-11-20T12:00:00Z');
const NOW = new Date('2026-11-21T12:00:00Z');
const zero = { likes: 0, replies: 0, reposts: 0, quotes: 0 };

/**
 * The refresh's metrics and its "not traceable" points in one statement (applyMetrics with `untraceFromCounts`,
 * issue 33): the untraced points are the counts less the counted records, as when they had a statement of their
 * own, and a post whose only change is those points keeps its `refreshed_at`, queues no delta, returns no author.
 */
describe.each(testDatabaseKinds())('applyMetrics with untraceFromCounts (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('sets the untraced points from the counts and the counted records, and moves only what changed', async () => {
    const db = database.db;
    await sql`truncate posts, authors, mana_totals, post_metric_changes, stream_records cascade`.execute(db);
    await upsertAuthors(
      db,
      [{ id: '101', handle: 'a', displayName: 'A', avatarUrl: null, firstTrackedAt: SEEN }],
      SEEN,
    );
    const post = (id: string, likes: number) => ({
      id,
      authorId: '101',
      text: '#ManaBoard',
      createdAt: SEEN,
      kind: 'original' as const,
      ...zero,
      likes,
    });
    await upsertPosts(db, [post('5001', 3), post('5002', 3), post('5003', 2)], SEEN);
    // 5002 and 5003 have a counted like, and a void one that does not count; 5003 is no longer live.
    const record = (id: string, subject: string, state: 'counted' | 'void') => ({
      id,
      kind: 'like' as const,
      subject_id: subject,
      author_id: '202',
      created_at: SEEN,
      state,
      ...(state === 'void' ? { void_reason: 'deleted', void_at: SEEN } : {}),
    });
    await db
      .insertInto('stream_records')
      .values([
        record('r1', '5002', 'counted'),
        record('r2', '5002', 'void'),
        record('r3', '5003', 'counted'),
      ])
      .execute();
    await db.updateTable('posts').set({ status: 'deleted' }).where('id', '=', '5003').execute();

    const authors = await applyMetrics(
      db,
      [
        { id: '5001', ...zero, likes: 4, replies: 1, final: false }, // counts moved
        { id: '5002', ...zero, likes: 3, final: false }, // only its untraced points differ
        { id: '5003', ...zero, likes: 2, final: false }, // live again
      ],
      NOW,
      { untraceFromCounts: true },
    );

    expect(authors).toEqual(['101']); // 5003 came back live: a full recompute of its author
    const rows = await db
      .selectFrom('posts')
      .select(['id', 'likes', 'replies', 'status', 'untraced_likes', 'untraced_replies', 'refreshed_at'])
      .orderBy('id')
      .execute();
    expect(
      rows.map((r) => [r.id, r.likes, r.replies, r.status, r.untraced_likes, r.untraced_replies]),
    ).toEqual([
      ['5001', 4, 1, 'live', 4, 1],
      ['5002', 3, 0, 'live', 2, 0],
      ['5003', 2, 0, 'live', 1, 0],
    ]);
    expect(rows.map((r) => r.refreshed_at.toISOString())).toEqual([
      NOW.toISOString(),
      SEEN.toISOString(),
      NOW.toISOString(),
    ]);
    // Only 5001's move is queued as a delta, with its counts as last counted.
    const queued = await db
      .selectFrom('post_metric_changes')
      .select(['post_id', 'likes', 'replies'])
      .execute();
    expect(queued).toEqual([{ post_id: '5001', likes: 3, replies: 0 }]);

    // The same answer again changes nothing.
    await db.deleteFrom('post_metric_changes').execute();
    const again = await applyMetrics(
      db,
      [
        { id: '5001', ...zero, likes: 4, replies: 1, final: false },
        { id: '5002', ...zero, likes: 3, final: false },
      ],
      new Date(NOW.getTime() + 3_600_000),
      { untraceFromCounts: true },
    );
    expect(again).toEqual([]);
    const after = await db.selectFrom('posts').select(['id', 'refreshed_at']).orderBy('id').execute();
    expect(after.map((r) => r.refreshed_at.toISOString())).toEqual(
      rows.map((r) => r.refreshed_at.toISOString()),
    );
    expect(await db.selectFrom('post_metric_changes').selectAll().execute()).toEqual([]);
  });
});
