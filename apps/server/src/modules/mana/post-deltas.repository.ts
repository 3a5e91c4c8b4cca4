import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import { forScoring, scoringColumns, type PostForScoring } from './posts.repository';
import type { PostMetrics } from '../../social/social-network';

/** A queued metrics change: the post as it is now (its metrics in `now`), and its metrics as the totals last counted them. */
export type QueuedChange = Omit<PostForScoring, keyof PostMetrics> & {
  now: PostMetrics;
  counted: PostMetrics;
};

/**
 * Up to `limit` queued changes of authors not waiting for a full recompute (a dirty author's changes are
 * dropped by that recompute, which reads every post anew). The queue is read first and the posts then by
 * primary key: joined in one statement, the planner hashes the whole posts table for a thousand rows. Call it
 * in the transaction that adds and drops the changes: the posts stay locked until it commits.
 */
export async function queuedChanges(db: Db, limit: number): Promise<QueuedChange[]> {
  const queue = await db
    .selectFrom('post_metric_changes as q')
    .innerJoin('authors as a', 'a.id', 'q.author_id')
    .select(['q.post_id', 'q.likes', 'q.replies', 'q.reposts', 'q.quotes'])
    .where('a.totals_dirty', '=', false)
    .orderBy('q.post_id')
    .limit(limit)
    .execute();
  if (queue.length === 0) return [];
  // Locked until the totals commit: read unlocked, a count a stream batch commits between this read and the
  // queue's drop below would be dropped with the queued row, never added (PostgreSQL's READ COMMITTED).
  const rows = await db
    .selectFrom('posts')
    .select(scoringColumns)
    .where(
      'id',
      'in',
      queue.map((q) => q.post_id),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return queue.flatMap((q) => {
    const r = byId.get(q.post_id);
    if (!r) return [];
    const { likes, replies, reposts, quotes, ...post } = forScoring(r);
    return [
      {
        ...post,
        now: { likes, replies, reposts, quotes },
        counted: { likes: q.likes, replies: q.replies, reposts: q.reposts, quotes: q.quotes },
      },
    ];
  });
}

/** Drops queued changes: those just added to the totals, or every one of authors recomputed in full. */
export async function dropQueued(db: Db, by: { postIds?: readonly string[]; authorIds?: readonly string[] }) {
  if (by.postIds && by.postIds.length > 0) {
    await db.deleteFrom('post_metric_changes').where('post_id', 'in', by.postIds).execute();
  }
  if (by.authorIds && by.authorIds.length > 0) {
    await db.deleteFrom('post_metric_changes').where('author_id', 'in', by.authorIds).execute();
  }
}

export type TotalsDelta = {
  period: string;
  authorId: string;
  mana: number;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
};

/** Adds differences to existing period rows (one statement per 1,000); a missing row (disqualified) stays missing. */
export async function addToTotals(db: Db, deltas: readonly TotalsDelta[]): Promise<void> {
  for (let i = 0; i < deltas.length; i += 1000) {
    const rows = sql.join(
      deltas
        .slice(i, i + 1000)
        .map(
          (d) =>
            sql`(${d.period}::text, ${d.authorId}::text, ${d.mana}::integer, ${d.likes}::integer, ${d.replies}::integer, ${d.reposts}::integer, ${d.quotes}::integer)`,
        ),
    );
    await sql`
      update mana_totals as t set mana = t.mana + d.mana, likes = t.likes + d.likes,
        replies = t.replies + d.replies, reposts = t.reposts + d.reposts, quotes = t.quotes + d.quotes
      from (values ${rows}) as d(period, author_id, mana, likes, replies, reposts, quotes)
      where t.period = d.period and t.author_id = d.author_id
    `.execute(db);
  }
}
