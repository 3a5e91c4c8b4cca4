import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import type { PostMetrics } from '../../social/social-network';

/**
 * A post's "not traceable" points (posts.untraced_*, issue 30): what its counts hold beyond the records that count
 * (stream_records in state 'counted'). Kept so that, for every kind, count = counted records + untraced: the records
 * page and the weekly ledger both rest on it.
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

/**
 * Recomputes the untraced points of these posts from their counts and their counted records: on a network whose
 * counts come from its metrics with no record (X), that is the whole count.
 */
export async function untraceFromCounts(db: Db, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    // The ids again on the updated side: without them the planner, with no statistics (PGlite never analyzes),
    // scanned every post to join the hundred it updates (issue 33).
    const counted = (kind: string) =>
      sql<number>`(select count(*)::integer from stream_records r
        where r.subject_id = posts.id and r.kind = ${kind} and r.state = 'counted')`;
    await sql`
      update posts set untraced_likes = v.likes, untraced_replies = v.replies, untraced_reposts = v.reposts,
        untraced_quotes = v.quotes
      from (
        select id, greatest(0, likes - ${counted('like')}) as likes,
          greatest(0, replies - ${counted('reply')}) as replies,
          greatest(0, reposts - ${counted('repost')}) as reposts,
          greatest(0, quotes - ${counted('quote')}) as quotes
        from posts where id in (${sql.join(chunk)})
      ) as v
      where posts.id = v.id and posts.id in (${sql.join(chunk)})
        and (posts.untraced_likes, posts.untraced_replies, posts.untraced_reposts, posts.untraced_quotes)
          is distinct from (v.likes, v.replies, v.reposts, v.quotes)
    `.execute(db);
  }
}
