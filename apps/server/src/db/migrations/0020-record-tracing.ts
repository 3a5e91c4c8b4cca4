import { sql, type Kysely } from 'kysely';

/**
 * The records behind every line (issue 30), on top of 0019:
 *
 * - `posts.traced_at`: when the trace job last read a post's records from the network's lists (the AppView's
 *   likers, reposters, quotes and thread, and each liker's repository) for the points it holds without a record.
 *   A post is read again only once its counts moved since (`refreshed_at`), so a point whose record cannot be
 *   found is not looked for on every run. The partial index finds the posts with such points.
 * - Existing rows are brought to the rule the engine keeps from now on, for every kind: a post's count = its
 *   counted records + its untraced points. Records beyond a post's count (they came once its counts no longer
 *   moved: past the refresh window) become void 'late', newest first; the rest of a count is untraced (on X, where
 *   counts come with no record, all of it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('traced_at', 'timestamptz').execute();
  await sql`
    create index posts_untraced_idx on posts (refreshed_at)
    where untraced_likes + untraced_replies + untraced_reposts + untraced_quotes > 0
  `.execute(db);
  await sql`
    with ranked as (
      select r.id, r.kind,
        row_number() over (partition by r.subject_id, r.kind order by r.created_at desc, r.id desc) as n,
        count(*) over (partition by r.subject_id, r.kind) as total,
        case r.kind when 'like' then p.likes when 'reply' then p.replies when 'repost' then p.reposts
          else p.quotes end as counted
      from stream_records r join posts p on p.id = r.subject_id
      where r.state = 'counted'
    )
    update stream_records s set state = 'void', void_reason = 'late', void_at = now()
    from ranked where s.id = ranked.id and s.kind = ranked.kind and ranked.n <= ranked.total - ranked.counted
  `.execute(db);
  const counted = (kind: string) =>
    sql`(select count(*)::integer from stream_records r
      where r.subject_id = posts.id and r.kind = ${kind} and r.state = 'counted')`;
  await sql`
    update posts set untraced_likes = greatest(0, likes - ${counted('like')}),
      untraced_replies = greatest(0, replies - ${counted('reply')}),
      untraced_reposts = greatest(0, reposts - ${counted('repost')}),
      untraced_quotes = greatest(0, quotes - ${counted('quote')})
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_untraced_idx').execute();
  await db.schema.alterTable('posts').dropColumn('traced_at').execute();
}
