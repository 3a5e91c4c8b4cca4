import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { PostStatus, Db } from '../../db/schema';
import type { PostsTable } from '../../db/schema-mana';
import type { PostMetrics } from '../../social/social-network';

export type TrackedPostInput = PostMetrics & {
  id: string;
  authorId: string;
  text: string;
  createdAt: Date;
  kind: 'original' | 'quote';
};

/**
 * Upserts tracked posts by id: a post seen again (the same search page twice, a replay after a crash) only
 * refreshes its metrics, and never once it is final. Counts given here come with no record (a search page's
 * metrics, or a new post's zeros): all of them are "not traceable" (posts.untraced_*, issue 30).
 */
export async function upsertPosts(db: Db, posts: readonly TrackedPostInput[], now: Date): Promise<void> {
  if (posts.length === 0) return;
  const unique = [...new Map(posts.map((p) => [p.id, p])).values()];
  await db
    .insertInto('posts')
    .values(
      unique.map((p) => ({
        id: p.id,
        author_id: p.authorId,
        text: p.text,
        created_at: p.createdAt,
        kind: p.kind,
        likes: p.likes,
        replies: p.replies,
        reposts: p.reposts,
        quotes: p.quotes,
        untraced_likes: p.likes,
        untraced_replies: p.replies,
        untraced_reposts: p.reposts,
        untraced_quotes: p.quotes,
        first_seen_at: now,
        refreshed_at: now,
      })),
    )
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => ({
          likes: eb.ref('excluded.likes'),
          replies: eb.ref('excluded.replies'),
          reposts: eb.ref('excluded.reposts'),
          quotes: eb.ref('excluded.quotes'),
          untraced_likes: eb.ref('excluded.untraced_likes'),
          untraced_replies: eb.ref('excluded.untraced_replies'),
          untraced_reposts: eb.ref('excluded.untraced_reposts'),
          untraced_quotes: eb.ref('excluded.untraced_quotes'),
          status: 'live',
          refreshed_at: eb.ref('excluded.refreshed_at'),
        }))
        .where('posts.final', '=', false),
    )
    .execute();
}

export type OpenPost = { id: string; authorId: string; createdAt: Date };

/** Posts still refreshed (not final), oldest first, after `afterId` in (created_at, id) order. */
export async function openPosts(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<OpenPost[]> {
  let query = db
    .selectFrom('posts')
    .select(['id', 'author_id', 'created_at'])
    .where('final', '=', false)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, authorId: r.author_id, createdAt: r.created_at }));
}

/**
 * New metrics of refreshed posts (one statement); `final` once a post left the refresh window. Only rows that
 * change are written (`refreshed_at` is when a post's metrics last moved). A post that was live keeps its
 * daily-limit slot and multiplier, so its change is queued as a per-post delta (its metrics as last counted,
 * read from the row before the update) for the totals job; returns the authors of the other changed posts
 * (a post coming back live), which need a full recompute. A refresh that changes nothing costs nothing.
 *
 * `untraceFromCounts`: the same statement also sets each given post's "not traceable" points from its new counts
 * and its counted records (what untraced.repository's untraceFromCounts did in a statement of its own, issue 33):
 * a post whose only change is its untraced points gets them, and nothing else of it moves (not `refreshed_at`,
 * no queued delta, no author returned).
 */
export async function applyMetrics(
  db: Db,
  updates: ReadonlyArray<PostMetrics & { id: string; final: boolean }>,
  now: Date,
  options: { untraceFromCounts?: boolean } = {},
): Promise<string[]> {
  if (updates.length === 0) return [];
  // The rows as six arrays, one a column: six parameters whatever the batch (issue 33: a VALUES list of 600
  // parameters cost PGlite ~a third more to parse, plan and bind than the same rows unnested).
  const rows = sql`unnest(${updates.map((u) => u.id)}::text[], ${updates.map((u) => u.likes)}::integer[],
    ${updates.map((u) => u.replies)}::integer[], ${updates.map((u) => u.reposts)}::integer[],
    ${updates.map((u) => u.quotes)}::integer[], ${updates.map((u) => u.final)}::boolean[])`;
  if (options.untraceFromCounts) return applyMetricsUntraced(db, rows, now);
  // `old` is the same row joined again: it reads the values from before this update.
  const { rows: changed } = await sql<{ author_id: string }>`
    with changed as (
      update posts set likes = v.likes, replies = v.replies, reposts = v.reposts, quotes = v.quotes,
        status = 'live', final = v.final, refreshed_at = ${now}
      from ${rows} as v(id, likes, replies, reposts, quotes, final), posts as old
      where posts.id = v.id and old.id = v.id and posts.final = false
        and (posts.likes, posts.replies, posts.reposts, posts.quotes, posts.status, posts.final)
          is distinct from (v.likes, v.replies, v.reposts, v.quotes, 'live', v.final)
      returning posts.id, posts.author_id, old.status as old_status, old.likes, old.replies, old.reposts,
        old.quotes
    ), queued as (
      insert into post_metric_changes (post_id, author_id, likes, replies, reposts, quotes)
      select id, author_id, likes, replies, reposts, quotes from changed where old_status = 'live'
      on conflict (post_id) do nothing
    )
    select author_id from changed where old_status <> 'live'
  `.execute(db);
  return changed.map((r) => r.author_id);
}

/**
 * applyMetrics with the untraced points set in the same statement: a row is written when its metrics moved (as
 * above) or when only its untraced points differ (then only those change). `moved` tells the two apart, so only
 * the first kind is queued or returned, as applyMetrics does.
 */
async function applyMetricsUntraced(db: Db, rows: RawBuilder<unknown>, now: Date): Promise<string[]> {
  const counted = (kind: string) =>
    sql`(select count(*)::integer from stream_records r
      where r.subject_id = v.id and r.kind = ${sql.lit(kind)} and r.state = 'counted')`;
  const metrics = sql`(posts.likes, posts.replies, posts.reposts, posts.quotes, posts.status, posts.final)
    is distinct from (v.likes, v.replies, v.reposts, v.quotes, 'live', v.final)`;
  const { rows: changed } = await sql<{ author_id: string }>`
    with changed as (
      update posts set likes = v.likes, replies = v.replies, reposts = v.reposts, quotes = v.quotes,
        status = 'live', final = v.final, refreshed_at = case when ${metrics} then ${now} else posts.refreshed_at end,
        untraced_likes = v.u_likes, untraced_replies = v.u_replies, untraced_reposts = v.u_reposts,
        untraced_quotes = v.u_quotes
      from (
        select v.*, greatest(0, v.likes - ${counted('like')}) as u_likes,
          greatest(0, v.replies - ${counted('reply')}) as u_replies,
          greatest(0, v.reposts - ${counted('repost')}) as u_reposts,
          greatest(0, v.quotes - ${counted('quote')}) as u_quotes
        from ${rows} as v(id, likes, replies, reposts, quotes, final)
      ) as v, posts as old
      where posts.id = v.id and old.id = v.id and posts.final = false
        and (${metrics}
          or (posts.untraced_likes, posts.untraced_replies, posts.untraced_reposts, posts.untraced_quotes)
            is distinct from (v.u_likes, v.u_replies, v.u_reposts, v.u_quotes))
      returning posts.id, posts.author_id, old.status as old_status, old.likes, old.replies, old.reposts,
        old.quotes,
        (old.likes, old.replies, old.reposts, old.quotes, old.status, old.final)
          is distinct from (posts.likes, posts.replies, posts.reposts, posts.quotes, posts.status, posts.final)
          as moved
    ), queued as (
      insert into post_metric_changes (post_id, author_id, likes, replies, reposts, quotes)
      select id, author_id, likes, replies, reposts, quotes from changed where moved and old_status = 'live'
      on conflict (post_id) do nothing
    )
    select author_id from changed where moved and old_status <> 'live'
  `.execute(db);
  return changed.map((r) => r.author_id);
}

/**
 * A post the network no longer shows (deleted or protected): it stops counting, or is closed when final.
 * Returns the author when something changed. `missingSince` is kept only by a stream network's grace-period
 * deletion (ADR 013); any other deletion (its own delete event) clears it, so a lagging reading never revives it.
 */
export async function markMissing(
  db: Db,
  update: { id: string; status: Exclude<PostStatus, 'live'>; final: boolean; missingSince?: Date },
  now: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable('posts')
    .set({
      status: update.status,
      final: update.final,
      refreshed_at: now,
      missing_since: update.missingSince ?? null,
    })
    .where('id', '=', update.id)
    .where('final', '=', false)
    .where((eb) => eb.or([eb('status', '<>', update.status), eb('final', '<>', update.final)]))
    .returning('author_id')
    .executeTakeFirst();
  return row?.author_id;
}

/** markMissing for many posts deleted by their own delete event (a stream's batch): one statement. */
export async function markManyDeleted(
  db: Db,
  ids: readonly string[],
  final: boolean,
  now: Date,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('posts')
    .set({ status: 'deleted', final, refreshed_at: now, missing_since: null })
    .where('id', 'in', ids)
    .where('final', '=', false)
    .where((eb) => eb.or([eb('status', '<>', 'deleted'), eb('final', '<>', final)]))
    .returning('author_id')
    .execute();
  return rows.map((r) => r.author_id);
}

export type PostForScoring = PostMetrics & {
  id: string;
  authorId: string;
  createdAt: Date;
  status: PostStatus;
  final: boolean;
  manaFixed: boolean;
  overLimit: boolean;
  multiplier: number;
  mana: number;
  /** The rules version the stored line was computed with (null: not scored since migration 0019). */
  rulesVersion: number | null;
};

/** The columns scoring reads of a post. */
export const scoringColumns = [
  'id',
  'author_id',
  'created_at',
  'status',
  'final',
  'mana_fixed',
  'over_limit',
  'multiplier',
  'mana',
  'likes',
  'replies',
  'reposts',
  'quotes',
  'rules_version',
] as const;

type ScoringRow = Pick<Selectable<PostsTable>, (typeof scoringColumns)[number]>;

/** A post row, as scoring sees it. */
export function forScoring(r: ScoringRow): PostForScoring {
  return {
    id: r.id,
    authorId: r.author_id,
    createdAt: r.created_at,
    likes: r.likes,
    replies: r.replies,
    reposts: r.reposts,
    quotes: r.quotes,
    status: r.status,
    final: r.final,
    manaFixed: r.mana_fixed,
    overLimit: r.over_limit,
    multiplier: r.multiplier,
    mana: r.mana,
    rulesVersion: r.rules_version,
  };
}

/** Every tracked post of the given authors, for scoring. */
export async function postsOfAuthors(db: Db, authorIds: readonly string[]): Promise<PostForScoring[]> {
  if (authorIds.length === 0) return [];
  // Locked until the recompute commits: a count written meanwhile (a stream batch on another connection) waits,
  // and then queues its change against what this recompute counted, instead of being dropped with the queue.
  const rows = await db
    .selectFrom('posts')
    .select(scoringColumns)
    .where('author_id', 'in', authorIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(forScoring);
}

/**
 * Writes the scorer's verdict on posts whose line changed (one statement per 1,000), with the rules version it
 * was computed with; fixed lines never move again.
 */
export async function saveScores(
  db: Db,
  scores: ReadonlyArray<{
    id: string;
    mana: number;
    overLimit: boolean;
    multiplier: number;
    fix: boolean;
    rulesVersion: number | null;
  }>,
): Promise<void> {
  for (let i = 0; i < scores.length; i += 1000) {
    const chunk = scores.slice(i, i + 1000);
    // The ids on the updated side too: joined to the given rows only, the planner (no statistics on PGlite)
    // scanned every post. The rows as arrays, one a column (a few parameters, not six a post: issue 33).
    const ids = chunk.map((s) => s.id);
    await sql`
      update posts set mana = v.mana, over_limit = v.over_limit, multiplier = v.multiplier, mana_fixed = v.fix,
        rules_version = v.rules_version
      from unnest(${ids}::text[], ${chunk.map((s) => s.mana)}::integer[], ${chunk.map((s) => s.overLimit)}::boolean[],
        ${chunk.map((s) => s.multiplier)}::integer[], ${chunk.map((s) => s.fix)}::boolean[],
        ${chunk.map((s) => s.rulesVersion)}::integer[]) as v(id, mana, over_limit, multiplier, fix, rules_version)
      where posts.id = v.id and posts.id = any(${ids}::text[])
    `.execute(db);
  }
}
