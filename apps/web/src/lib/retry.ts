import { RETRY_ATTEMPTS, RETRY_DELAY_UNIT_MS } from '../config/constants';
import { ApiError } from './api-error';
import { sleep } from './sleep';

/**
 * Failures worth another try: the network, our time-out and server faults. A 4xx is the server's considered
 * answer (a self-referral stays a self-referral) and a 429 asks us to slow down, so neither is repeated.
 */
export function isTransientFailure(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.isTimeout || error.status >= 500;
}

/**
 * The retry helper of SPEC §7 (apply, status, account): up to 3 attempts, waiting 1 s × the attempt number
 * between them (1 s, then 2 s), for transient failures only.
 */
export async function withRetry<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= RETRY_ATTEMPTS || !isTransientFailure(error)) throw error;
      await sleep(RETRY_DELAY_UNIT_MS * attempt, signal);
    }
  }
}
