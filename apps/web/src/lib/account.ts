import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountResponseSchema, type AccountInfo } from '@manaboard/contract';
import { ACCOUNT_RECHECK_MS } from '../config/constants';
import { apiRequest } from './api-client';
import { ApiError } from './api-error';
import { storedBrowserId } from './browser-id';
import { withRetry } from './retry';

/** Query keys of the browser's account, which the card, the header, the leaderboard and the first screen read. */
export const accountKeys = {
  all: ['account'] as const,
  me: () => [...accountKeys.all, 'me'] as const,
};

export const NOT_CONNECTED: AccountInfo = { connected: false, handle: null, avatarUrl: null };

/** `GET /me/account` (SPEC §7): whether this browser is linked, with the handle and avatar. */
export async function getAccount(signal?: AbortSignal): Promise<AccountInfo> {
  const { data } = await apiRequest('/me/account', {
    schema: accountResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return data;
}

/**
 * The account state of SPEC §4: a browser with no id yet is not connected (no call needed); a 429 rejects so
 * TanStack Query keeps the previous state and the next re-check tries again; any other failure, after the
 * retry helper, resets to not connected.
 */
export async function checkAccount(signal?: AbortSignal): Promise<AccountInfo> {
  if (!storedBrowserId()) return NOT_CONNECTED;
  try {
    return await withRetry(() => getAccount(signal), signal);
  } catch (error) {
    if (error instanceof ApiError && error.isRateLimit) throw error;
    if (signal?.aborted) throw error;
    return NOT_CONNECTED;
  }
}

export const accountQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: ({ signal }) => checkAccount(signal),
    // Re-checked every 30 s; focus and storage events are wired by useAccountRechecks. An answer stands until
    // the next re-check, so the page mounting right after the first-screen check does not ask again.
    refetchInterval: ACCOUNT_RECHECK_MS,
    staleTime: ACCOUNT_RECHECK_MS,
    retry: false,
    // A 429 (the only failure that rejects) is skipped and retried at the next re-check (SPEC §4), not again
    // when the page mounts after the first-screen check.
    retryOnMount: false,
  });

/** SPEC §4: connected only when the account info says connected and names a handle. */
export function isConnected(info: AccountInfo | undefined): info is AccountInfo & { handle: string } {
  return Boolean(info?.connected && info.handle);
}

export type AccountState = {
  /** Connected only when the server says so and names a handle (SPEC §4). */
  connected: boolean;
  handle: string | null;
  avatarUrl: string | null;
  isLoading: boolean;
};

export function useAccount(): AccountState {
  const { data, isPending } = useQuery(accountQueryOptions());
  const connected = isConnected(data);
  return {
    connected,
    handle: connected ? (data?.handle ?? null) : null,
    avatarUrl: connected ? (data?.avatarUrl ?? null) : null,
    isLoading: isPending,
  };
}
