import type { Db } from '../../db/schema';

/** When any worker job last finished (on the worker's clock), or undefined when none ever ran. */
export async function newestJobRun(db: Db): Promise<Date | undefined> {
  const row = await db
    .selectFrom('ingest_state')
    .select((eb) => eb.fn.max('updated_at').as('newest'))
    .where('last_run_at', 'is not', null)
    .executeTakeFirst();
  return row?.newest ? new Date(row.newest) : undefined;
}
