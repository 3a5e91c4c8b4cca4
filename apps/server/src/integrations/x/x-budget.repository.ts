import { sql } from 'kysely';
import type { Db } from '../../db/schema';

export type UsageRow = { day: string; endpoint: string; calls: number; reads: number; failures: number };

/** Adds counted calls (and their reads) to each day's line for the endpoint, in one statement. */
export async function addUsage(
  db: Db,
  lines: ReadonlyArray<{ day: string; endpoint: string; calls: number; reads: number; failures: number }>,
  now: Date,
): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto('x_api_usage')
    .values(
      lines.map((l) => ({
        day: l.day,
        endpoint: l.endpoint,
        calls: l.calls,
        reads: l.reads,
        failures: l.failures,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['day', 'endpoint']).doUpdateSet({
        calls: sql`x_api_usage.calls + excluded.calls`,
        reads: sql`x_api_usage.reads + excluded.reads`,
        failures: sql`x_api_usage.failures + excluded.failures`,
        updated_at: now,
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

/** Reads (posts and users) spent this UTC month, from the ledger: the metrics' budget gauge. */
export async function monthReads(db: Db, now: Date): Promise<number> {
  const lines = await usageSince(db, `${now.toISOString().slice(0, 7)}-01`);
  return lines.reduce((sum, line) => sum + line.reads, 0);
}
