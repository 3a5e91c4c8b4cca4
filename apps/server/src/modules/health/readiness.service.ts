import type { Db } from '../../db/schema';
import { newestJobRun } from './health.repository';

export type Readiness = { ready: true } | { ready: false; reason: 'database' | 'worker' };

/** What readiness is judged from. */
export type ReadinessDeps = {
  db: Db;
  ping: () => Promise<boolean>;
  /** How long the worker leader may go without finishing a job (0: not checked). */
  workerMaxAgeMs: number;
  /** When this process's own worker last finished a job (wall clock), if it runs one that has. */
  localJobRunAt?: () => number | undefined;
  now?: () => number;
};

/**
 * Ready when the database answers and the worker leader has run recently: this process's own worker when it
 * has run a job, otherwise the newest run recorded in the database by whichever worker leads. A database where
 * no job ever ran (a fresh install, a worker still starting) is not held against readiness.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  if (!(await deps.ping())) return { ready: false, reason: 'database' };
  if (deps.workerMaxAgeMs <= 0) return { ready: true };
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
  if (last === undefined || now - last <= deps.workerMaxAgeMs) return { ready: true };
  return { ready: false, reason: 'worker' };
}
