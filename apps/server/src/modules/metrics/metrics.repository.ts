import type { Db } from '../../db/schema';

const toMs = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? undefined : new Date(value).getTime();

/**
 * How far the totals lag the newest ingested post, in seconds: 0 when no author waits for a totals run;
 * otherwise from the last successful totals run (or, before the first one, the oldest post) to the newest
 * post seen. Both times are the worker's, so the figure holds on a simulated clock too.
 */
export async function totalsLagSeconds(db: Db): Promise<number> {
  const dirty = await db
    .selectFrom('authors')
    .select('id')
    .where('totals_dirty', '=', true)
    .limit(1)
    .executeTakeFirst();
  if (!dirty) return 0;
  const posts = await db
    .selectFrom('posts')
    .select((eb) => [eb.fn.max('first_seen_at').as('newest'), eb.fn.min('first_seen_at').as('oldest')])
    .executeTakeFirst();
  const totals = await db
    .selectFrom('ingest_state')
    .select('last_success_at')
    .where('job', '=', 'totals')
    .executeTakeFirst();
  const newest = toMs(posts?.newest);
  const since = toMs(totals?.last_success_at) ?? toMs(posts?.oldest);
  if (newest === undefined || since === undefined) return 0;
  return Math.max(0, (newest - since) / 1000);
}
