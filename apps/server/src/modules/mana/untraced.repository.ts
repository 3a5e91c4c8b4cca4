import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import type { PostMetrics } from '../../social/social-network';

/**
 * A post's "not traceable" points (posts.untraced_*, issue 30): what its counts hold beyond the records that count
 * (stream_records in state 'counted'). Kept so that, for every kind, count = counted records + untraced: the records
 * page and the weekly ledger both rest on it.
 */

/*
 * On a network whose counts come from its metrics (X), the refresh sets them in its metrics statement instead
 * (posts.repository's applyMetrics with `untraceFromCounts`).
 */

/** Sets posts' untraced points (one statement; only rows that change are written). */
export async function setUntraced(db: Db, rows: ReadonlyArray<PostMetrics & { id: string }>): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const values = sql.join(
      rows
        .slice(i, i + 1000)
        .map(
          (r) =>
            sql`(${r.id}::text, ${r.likes}::integer, ${r.replies}::integer, ${r.reposts}::integer, ${r.quotes}::integer)`,
        ),
    );
    await sql`
      update posts set untraced_likes = v.likes, untraced_replies = v.replies, untraced_reposts = v.reposts,
        untraced_quotes = v.quotes
      from (values ${values}) as v(id, likes, replies, reposts, quotes)
      where posts.id = v.id
        and (posts.untraced_likes, posts.untraced_replies, posts.untraced_reposts, posts.untraced_quotes)
          is distinct from (v.likes, v.replies, v.reposts, v.quotes)
    `.execute(db);
  }
}
