import type { Db } from '../../db/schema';
import { newestJobRun } from './health.repository';

/** Ready, maybe degraded (still serving, but the operator should look: the stream is behind), or not ready. */
export type Readiness =
  | { ready: true; degraded?: { reason: 'stream-lag'; detail: string } }
  | { ready: false; reason: 'database' | 'worker' };

/** What readiness is judged from. */
export type ReadinessDeps = {
  db: Db;
  ping: () => Promise<boolean>;
  /** How long the worker leader may go without finishing a job (0: not checked). */
  workerMaxAgeMs: number;
  /** When this process's own worker last finished a job (wall clock), if it runs one that has. */
  localJobRunAt?: () => number | undefined;
  now?: () => number;
  /** The event stream's lag in seconds (null: no stream reported); absent on a process that does not check it. */
  streamLagSeconds?: () => Promise<number | null>;
  /** Above this lag readiness is degraded (READY_STREAM_MAX_LAG_SECONDS; 0: not checked). */
  streamMaxLagSeconds?: number;
};

/**
 * Ready when the database answers and the worker leader has run recently: this process's own worker when it
 * has run a job, otherwise the newest run recorded in the database by whichever worker leads. A database where
 * no job ever ran (a fresh install, a worker still starting) is not held against readiness.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  if (!(await deps.ping())) return { ready: false, reason: 'database' };
  if (deps.workerMaxAgeMs <= 0) return streamReadiness(deps);
  const now = (deps.now ?? Date.now)();
  const local = deps.localJobRunAt?.();
  let last: number | undefined = local;
  if (last === undefined) {
    try {
      last = (await newestJobRun(deps.db))?.getTime();
    } catch {
      return { ready: false, reason: 'database' };
    }
  }
  if (last === undefined || now - last <= deps.workerMaxAgeMs) return streamReadiness(deps);
  return { ready: false, reason: 'worker' };
}

/**
 * Degraded when the stream lags more than allowed: the API still answers (so an orchestrator keeps routing to
 * it), but the board is stale and, past the source's replay window, events are lost; the reason says so.
 */
async function streamReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const bound = deps.streamMaxLagSeconds ?? 0;
  if (bound <= 0 || !deps.streamLagSeconds) return { ready: true };
  let lag: number | null;
  try {
    lag = await deps.streamLagSeconds();
  } catch {
    return { ready: false, reason: 'database' };
  }
  if (lag === null || lag <= bound) return { ready: true };
  const detail = `the event stream is ${Math.round(lag)} s behind the network (READY_STREAM_MAX_LAG_SECONDS=${bound})`;
  return { ready: true, degraded: { reason: 'stream-lag', detail } };
}
