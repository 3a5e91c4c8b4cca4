import { sql } from 'kysely';
import type { Db } from '../../db/schema';

const WORKER = 'worker';

/** The stored pause switch (no row: running). */
export async function readControl(db: Db) {
  const row = await db.selectFrom('worker_control').selectAll().where('id', '=', WORKER).executeTakeFirst();
  return {
    paused: row?.paused ?? false,
    changedBy: row?.changed_by ?? null,
    changedAt: row?.changed_at ?? null,
  };
}

export async function writePaused(db: Db, paused: boolean, by: string, at: Date): Promise<void> {
  await db
    .insertInto('worker_control')
    .values({ id: WORKER, paused, changed_by: by, changed_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ paused, changed_by: by, changed_at: at }))
    .execute();
}

export async function insertRunRequest(db: Db, job: string, by: string, at: Date) {
  return db
    .insertInto('job_run_requests')
    .values({ job, requested_by: by, requested_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Takes every waiting request (marks it started), oldest first: the leader runs each once. */
export async function claimRunRequests(db: Db, at: Date) {
  const { rows } = await sql<{ id: string; job: string }>`
    update job_run_requests set started_at = ${at}
    where id in (select id from job_run_requests where started_at is null order by requested_at, id for update skip locked)
    returning id, job
  `.execute(db);
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

export async function finishRunRequest(db: Db, id: string, at: Date, error: string | null): Promise<void> {
  await db.updateTable('job_run_requests').set({ finished_at: at, error }).where('id', '=', id).execute();
}

/** The latest requests, newest first (the console shows whether each ran). */
export async function recentRunRequests(db: Db, limit: number) {
  return db.selectFrom('job_run_requests').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
