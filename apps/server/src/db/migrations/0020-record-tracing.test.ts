import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo } from '../../test/migrate-to';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import type { DatabaseHandle } from '../database';

/**
 * Migration 0020 brings rows stored before it to the rule the engine keeps from then on: for every post and kind,
 * count = counted records + untraced points. Records beyond a count (they came once the post no longer moved) turn
 * void 'late', newest first; what a count holds beyond its records is untraced (all of an X count).
 */
describe.each(testDatabaseKinds())('migration 0020 (record tracing) on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    handle = await openTestDatabase(kind, { migrate: false });
    db = handle.db as unknown as Kysely<unknown>;
    await migrateTo(db, '0019-traceable-records');
  });
  afterAll(async () => {
    await handle.close();
  });

  it('voids the newest records beyond a count, and leaves the rest of a count untraced', async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 12, minute));
    await sql`
      insert into authors (id, handle, display_name, avatar_url, first_tracked_at, updated_at)
      values ('ann', 'ann', 'Ann', null, ${at(0)}, ${at(0)})`.execute(db);
    // A stream post with 2 likes counted but 4 like records (2 came late), 1 reply and no record of it;
    // an X post with counts and no records.
    await sql`
      insert into posts (id, author_id, text, created_at, kind, likes, replies, reposts, quotes, first_seen_at,
                         refreshed_at)
      values ('stream-post', 'ann', '#ManaBoard', ${at(0)}, 'original', 2, 1, 0, 0, ${at(0)}, ${at(0)}),
             ('x-post', 'ann', '#ManaBoard', ${at(0)}, 'original', 10, 2, 1, 1, ${at(0)}, ${at(0)})`.execute(
      db,
    );
    for (const minute of [1, 2, 3, 4]) {
      await sql`
        insert into stream_records (id, kind, subject_id, author_id, created_at)
        values (${`like-${minute}`}, 'like', 'stream-post', ${`fan-${minute}`}, ${at(minute)})`.execute(db);
    }
    await migrateTo(db, '0020-record-tracing');

    const records = await sql<{ id: string; state: string; void_reason: string | null }>`
      select id, state, void_reason from stream_records order by id`.execute(db);
    expect(records.rows.map((r) => [r.id, r.state, r.void_reason])).toEqual([
      ['like-1', 'counted', null],
      ['like-2', 'counted', null],
      ['like-3', 'void', 'late'],
      ['like-4', 'void', 'late'],
    ]);
    const posts = await sql<Record<string, unknown>>`
      select id, untraced_likes, untraced_replies, untraced_reposts, untraced_quotes, traced_at
      from posts order by id`.execute(db);
    expect(posts.rows).toEqual([
      {
        id: 'stream-post',
        untraced_likes: 0,
        untraced_replies: 1,
        untraced_reposts: 0,
        untraced_quotes: 0,
        traced_at: null,
      },
      {
        id: 'x-post',
        untraced_likes: 10,
        untraced_replies: 2,
        untraced_reposts: 1,
        untraced_quotes: 1,
        traced_at: null,
      },
    ]);
  });
});
