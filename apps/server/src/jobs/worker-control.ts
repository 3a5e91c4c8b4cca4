import type { Db } from '../db/schema';
import { readState } from '../modules/mana/ingest-state.repository';
import {
  claimRunRequests,
  finishRunRequest,
  readControl,
} from '../modules/worker-control/worker-control.repository';
import type { JobLog, JobName, JobOutcome } from './job';

const jobNames: readonly string[] = ['search', 'refresh', 'interactions', 'settle', 'totals', 'ledger'];

/**
 * Whether the operator paused the worker (console or another process: the switch lives in the database). The
 * leader asks before each scheduled run, so a pause takes effect between runs; a failed read counts as running
 * (the job then meets the same database trouble and records it).
 */
export async function workerPaused(db: Db, log: JobLog): Promise<boolean> {
  try {
    return (await readControl(db)).paused;
  } catch (error) {
    log.warn({ err: error }, 'worker: could not read the pause switch; running');
    return false;
  }
}

/**
 * Runs the jobs the operator asked to run now (stored requests, maybe from another process), each once, in the
 * order asked, paused or not (an explicit request is the operator's choice), and records how each ended.
 */
export async function obeyRunRequests(
  db: Db,
  now: () => Date,
  worker: { uses: (job: JobName) => boolean; runJob: (job: JobName) => Promise<JobOutcome | null> },
  log: JobLog,
): Promise<number> {
  const requests = await claimRunRequests(db, now());
  for (const request of requests) {
    const job = request.job as JobName;
    let error: string | null = null;
    if (!jobNames.includes(job) || !worker.uses(job)) {
      error = `${request.job} does not run on this network`;
    } else {
      const outcome = await worker.runJob(job);
      if (!outcome) error = (await readState(db, job))?.last_error ?? 'the job did not run (worker stopping)';
    }
    await finishRunRequest(db, request.id, now(), error);
    log.info({ job: request.job, error }, 'worker: ran a job on request');
  }
  return requests.length;
}
