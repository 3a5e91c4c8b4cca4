import type { AccountInfo } from '@manaboard/contract';
import {
  AUTH_POLL_BASE_DELAY_MS,
  AUTH_POLL_DOUBLE_EVERY,
  AUTH_POLL_MAX_CHECKS,
  AUTH_POLL_MAX_DELAY_MS,
  AUTH_POLL_NETWORK_RETRY_MS,
} from '../../config/constants';
import { ApiError } from '../../lib/api-error';
import { sleep } from '../../lib/sleep';

export type PollOutcome =
  | { kind: 'connected'; account: AccountInfo }
  | { kind: 'not-connected' }
  | { kind: 'failed'; error: unknown };

/** The wait after check number `index` (0-based): 500 ms, doubling every 10 checks, capped at 2 s (SPEC §9). */
export function pollDelayMs(index: number): number {
  return Math.min(
    AUTH_POLL_BASE_DELAY_MS * 2 ** Math.floor(index / AUTH_POLL_DOUBLE_EVERY),
    AUTH_POLL_MAX_DELAY_MS,
  );
}

/** The network failed or our own time-out fired: worth asking again in 2 s. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.isTimeout);
}

/**
 * Polls the account after X sent the browser back (SPEC §2 auth-return, §9): at most 30 checks; stops at the
 * first connected answer, at a non-network failure, or when the checks run out. Rejects only when `signal`
 * aborts.
 */
export async function pollForConnection(
  check: (signal: AbortSignal) => Promise<AccountInfo>,
  signal: AbortSignal,
): Promise<PollOutcome> {
  for (let index = 0; index < AUTH_POLL_MAX_CHECKS; index += 1) {
    const last = index === AUTH_POLL_MAX_CHECKS - 1;
    try {
      const account = await check(signal);
      if (account.connected && account.handle) return { kind: 'connected', account };
      if (!last) await sleep(pollDelayMs(index), signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!isNetworkFailure(error)) return { kind: 'failed', error };
      if (!last) await sleep(AUTH_POLL_NETWORK_RETRY_MS, signal);
    }
  }
  return { kind: 'not-connected' };
}
