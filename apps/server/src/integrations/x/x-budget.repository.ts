import { sql } from 'kysely';
import type { Db } from '../../db/schema';

export type UsageRow = { day: string; endpoint: string; calls: number; reads: number; failures: number };

/** Adds one call (and its reads) to the day's line for the endpoint. */
export async function addUsage(
  db: Db,
  line: { day: string; endpoint: string; reads: number; failed: boolean; now: Date },
): Promise<void> {
  const failures = line.failed ? 1 : 0;
  await db
    .insertInto('x_api_usage')
    .values({
      day: line.day,
      endpoint: line.endpoint,
      calls: 1,
      reads: line.reads,
      failures,
      updated_at: line.now,
    })
    .onConflict((oc) =>
      oc.columns(['day', 'endpoint']).doUpdateSet({
        calls: sql`x_api_usage.calls + 1`,
        reads: sql`x_api_usage.reads + ${line.reads}`,
        failures: sql`x_api_usage.failures + ${failures}`,
        updated_at: line.now,
      }),
    )
    .execute();
}

/** Lines from `fromDay` (inclusive), by day then endpoint. */
export async function usageSince(db: Db, fromDay: string): Promise<UsageRow[]> {
  const rows = await db
    .selectFrom('x_api_usage')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'endpoint', 'calls', 'reads', 'failures'])
    .where('day', '>=', fromDay)
    .orderBy('day')
    .orderBy('endpoint')
    .execute();
  return rows.map((r) => ({
    ...r,
    calls: Number(r.calls),
    reads: Number(r.reads),
    failures: Number(r.failures),
  }));
}
