import type { Selectable } from 'kysely';
import type { IngestStateTable, Db } from '../../db/schema';

export type IngestState = Selectable<IngestStateTable>;

/** The stored state of a job (an empty cursor for a job that never ran). */
export async function readState(db: Db, job: string): Promise<IngestState | undefined> {
  return db.selectFrom('ingest_state').selectAll().where('job', '=', job).executeTakeFirst();
}

/**
 * Saves a job's cursor; called inside the transaction of the batch it describes. A stream's `waiting` (where the
 * oldest event still waiting for its post was read; null: none) is saved in the same write; left as it is when
 * not given.
 */
export async function saveCursor(
  db: Db,
  job: string,
  cursor: Record<string, unknown>,
  now: Date,
  waiting?: Record<string, unknown> | null,
) {
  const values = {
    cursor: JSON.stringify(cursor),
    updated_at: now,
    ...(waiting !== undefined ? { waiting_cursor: waiting && JSON.stringify(waiting) } : {}),
  };
  await db
    .insertInto('ingest_state')
    .values({ job, ...values })
    .onConflict((oc) => oc.column('job').doUpdateSet(values))
    .execute();
}

export type RunReport = {
  startedAt: Date;
  finishedAt: Date;
  error: string | null;
  calls: number;
  nextRunAt: Date | null;
  rateLimitResetAt: Date | null;
  /** Wall-clock duration and the run's counts, for the console (absent: left as they were). */
  durationMs?: number;
  items?: Record<string, number>;
};

/** Records a finished run for the operator: when, how many network calls, the error if any, the next run. */
export async function recordRun(db: Db, job: string, report: RunReport): Promise<void> {
  const values = {
    last_run_at: report.startedAt,
    next_run_at: report.nextRunAt,
    rate_limit_reset_at: report.rateLimitResetAt,
    updated_at: report.finishedAt,
    ...(report.durationMs !== undefined ? { last_duration_ms: Math.round(report.durationMs) } : {}),
    ...(report.items !== undefined ? { last_items: JSON.stringify(report.items) } : {}),
    ...(report.error === null
      ? { last_success_at: report.finishedAt }
      : { last_error: report.error, last_error_at: report.finishedAt }),
  };
  await db
    .insertInto('ingest_state')
    .values({ job, calls_spent: report.calls, ...values })
    .onConflict((oc) =>
      oc.column('job').doUpdateSet((eb) => ({
        ...values,
        calls_spent: eb('ingest_state.calls_spent', '+', report.calls),
      })),
    )
    .execute();
}

/** Every job's state, for the operator. */
export async function allStates(db: Db): Promise<IngestState[]> {
  return db.selectFrom('ingest_state').selectAll().orderBy('job').execute();
}
