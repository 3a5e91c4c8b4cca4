import type { Job, JobName, JobOutcome } from './job';
import { refreshJob } from './refresh.job';
import { searchJob } from './search.job';
import { interactionsJob } from './interactions.job';
import { settleJob } from './settle.job';
import { totalsJob } from './totals.job';
import { fairnessJob } from './fairness.job';
import { traceJob } from './trace.job';
import { ledgerJob } from './ledger.job';

export const jobs: Record<JobName, Job> = {
  search: searchJob,
  refresh: refreshJob,
  interactions: interactionsJob,
  settle: settleJob,
  totals: totalsJob,
  fairness: fairnessJob,
  trace: traceJob,
  ledger: ledgerJob,
};

/** Something only the leader runs besides the scheduled jobs (an event-stream consumer). */
export type LeaderService = { name: string; start: () => Promise<void>; stop: () => Promise<void> };

/** How a worker runs: its schedule, its network's jobs, leadership, and who is told of its runs. */
export type WorkerOptions = {
  /** When each job runs; a job left out of a custom schedule is not scheduled (it still runs on demand). */
  schedule?: Partial<Record<JobName, string>>;
  /**
   * Every job every this many seconds instead of the schedule (WORKER_INTERVAL_SECONDS); a standing-by worker
   * also retries leadership that often (at most every 15 s), so it takes over within one interval.
   */
  intervalSeconds?: number;
  /** PGlite holds the leader lock differently (see Leadership). */
  databaseKind?: 'pglite' | 'postgres';
  /** How often a leader checks the connection that holds its lock (default 5 s). */
  leaderCheckSeconds?: number;
  /** Called after a totals run that changed something (an in-process API drops its cached pages). */
  onTotalsChanged?: () => void;
  rateLimitResetAt?: (job: JobName) => Date | null;
  /**
   * The jobs this network uses (default: all). A network read from an event stream has no polling search:
   * the stream brings posts and interactions, and refresh, settle and totals stay the same.
   */
  jobs?: readonly JobName[];
  /** Started when this worker becomes the leader, stopped when it steps down or stops. */
  leaderServices?: readonly LeaderService[];
  /** How often the leader looks for run-now requests (default 2 s). */
  controlPollMs?: number;
  /** Told of every finished run, with its wall-clock duration (the process's metrics). */
  onRun?: (report: { job: JobName; seconds: number; outcome: JobOutcome | null; error: boolean }) => void;
};
