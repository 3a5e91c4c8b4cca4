import type { Kysely } from 'kysely';
import type { RunRequest, WorkerJobName, WorkerStatus } from '@manaboard/contract/admin';
import type { Database } from '../../db/schema';
import { recordAudit } from '../audit/audit.repository';
import { allStates } from '../mana/ingest-state.repository';
import type { NetworkUsageSource } from '../../social/network-usage';
import * as repo from './worker-control.repository';

/** A job of the configured network's schedule (jobs/worker-schedule.ts), as the console lists it. */
export type ListedJob = {
  job: string;
  schedule: string;
  nextRunAt: (now: Date, lastRunAt: Date | null) => Date;
};

export type WorkerControlDeps = {
  db: Kysely<Database>;
  now: () => number;
  usage: NetworkUsageSource;
  /** Every job the leading worker schedules on this network, in order. */
  schedule: readonly ListedJob[];
};

const iso = (at: Date | null | undefined) => at?.toISOString() ?? null;

function runRequestView(row: Awaited<ReturnType<typeof repo.recentRunRequests>>[number]): RunRequest {
  return {
    id: String(row.id),
    job: row.job,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    error: row.error,
  };
}

/**
 * Console, Worker and network: paused or not (and by whom), every job of the network's schedule with its next
 * run (computed from the schedule; none while paused) and its last run's time, duration, error, items, calls and
 * rate-limit window (from ingest_state, written by whichever process leads), the network's usage, and the
 * latest run-now requests with how each ended.
 */
export async function workerStatus(deps: WorkerControlDeps): Promise<WorkerStatus> {
  const now = new Date(deps.now());
  const [control, states, usage, requests] = await Promise.all([
    repo.readControl(deps.db),
    allStates(deps.db),
    deps.usage(now),
    repo.recentRunRequests(deps.db, 20),
  ]);
  // ingest_state also holds cursors that are no job (the stream's, the demo's, the totals stamp): only the
  // schedule's jobs are listed, each once, run or not.
  const byJob = new Map(states.map((s) => [s.job, s]));
  return {
    paused: control.paused,
    pausedBy: control.paused ? control.changedBy : null,
    pausedAt: control.paused ? iso(control.changedAt) : null,
    jobs: deps.schedule.map((scheduled) => {
      const s = byJob.get(scheduled.job);
      return {
        job: scheduled.job,
        schedule: scheduled.schedule,
        lastRunAt: iso(s?.last_run_at),
        lastSuccessAt: iso(s?.last_success_at),
        // From the schedule, not the stored row (written only after a run, stale after a pause or a restart).
        nextRunAt: control.paused ? null : iso(scheduled.nextRunAt(now, s?.last_run_at ?? null)),
        lastDurationMs: s?.last_duration_ms ?? null,
        lastError: s?.last_error ?? null,
        lastErrorAt: iso(s?.last_error_at),
        items: s?.last_items ?? {},
        callsSpent: Number(s?.calls_spent ?? 0),
        rateLimitResetAt: iso(s?.rate_limit_reset_at),
      };
    }),
    usage,
    runRequests: requests.map(runRequestView),
  };
}

/**
 * Pauses or resumes the worker, audited (before, after). Stored in the database: the leading worker, in this
 * process or another, skips its scheduled runs while paused and resumes on the next tick after.
 */
export async function setWorkerPaused(
  db: Kysely<Database>,
  input: { paused: boolean; actor: string; now: Date },
): Promise<{ paused: boolean }> {
  return db.transaction().execute(async (trx) => {
    const before = await repo.readControl(trx);
    await repo.writePaused(trx, input.paused, input.actor, input.now);
    await recordAudit(trx, {
      actor: input.actor,
      action: input.paused ? 'worker.pause' : 'worker.resume',
      subject: 'worker',
      details: { before: { paused: before.paused }, after: { paused: input.paused } },
    });
    return { paused: input.paused };
  });
}

/**
 * Asks the leading worker to run a job now (even while paused: it is the operator's explicit wish), audited.
 * The request is stored; the leader picks it up within its poll interval and records how it ended.
 */
export async function requestJobRun(
  db: Kysely<Database>,
  input: { job: WorkerJobName; actor: string; now: Date },
): Promise<RunRequest> {
  return db.transaction().execute(async (trx) => {
    const row = await repo.insertRunRequest(trx, input.job, input.actor, input.now);
    await recordAudit(trx, {
      actor: input.actor,
      action: 'worker.run-now',
      subject: input.job,
      details: { requestId: String(row.id), before: null, after: { job: input.job } },
    });
    return runRequestView(row);
  });
}
