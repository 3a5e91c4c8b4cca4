import type { Db } from '../../db/schema';

const toMs = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? undefined : new Date(value).getTime();

/**
 * How far the totals lag the newest ingested post, in seconds: 0 only when nothing waits for a totals run (no
 * author flagged, no post's changed counts queued, post_metric_changes); otherwise from the last successful
 * totals run (or, before the first one, the oldest post) to the newest post seen or count changed, and at least
 * a millisecond (a change queued during the last run still waits). Both times are the worker's, so the figure
 * holds on a simulated clock too.
 */
export async function totalsLagSeconds(db: Db): Promise<number> {
  const dirty = await db
    .selectFrom('authors')
    .select('id')
    .where('totals_dirty', '=', true)
    .limit(1)
    .executeTakeFirst();
  const queued = await db.selectFrom('post_metric_changes').select('post_id').limit(1).executeTakeFirst();
  if (!dirty && !queued) return 0;
  const posts = await db
    .selectFrom('posts')
    .select((eb) => [
      eb.fn.max('first_seen_at').as('newest'),
      eb.fn.min('first_seen_at').as('oldest'),
      eb.fn.max('refreshed_at').as('changed'),
    ])
    .executeTakeFirst();
  const totals = await db
    .selectFrom('ingest_state')
    .select('last_success_at')
    .where('job', '=', 'totals')
    .executeTakeFirst();
  const newest = Math.max(toMs(posts?.newest) ?? 0, toMs(posts?.changed) ?? 0);
  const since = toMs(totals?.last_success_at) ?? toMs(posts?.oldest) ?? newest;
  return Math.max(0.001, (newest - since) / 1000);
}
