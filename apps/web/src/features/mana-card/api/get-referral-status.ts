import { queryOptions, useQuery } from '@tanstack/react-query';
import { referralStatusResponseSchema, type ReferralStatus } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { withRetry } from '../../../lib/retry';
import { referralKeys } from './referral-keys';

/** `GET /referrals/status` (SPEC §7), through the retry helper. */
export async function getReferralStatus(signal?: AbortSignal): Promise<ReferralStatus> {
  const { data } = await withRetry(
    () =>
      apiRequest('/referrals/status', {
        schema: referralStatusResponseSchema,
        ...(signal ? { signal } : {}),
      }),
    signal,
  );
  return data;
}

export const referralStatusQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: referralKeys.status(handle),
    queryFn: ({ signal }) => getReferralStatus(signal),
    // withRetry already retried; the card offers Retry after that.
    retry: false,
  });

/** The status of the member whose handle is given (keyed by it, so a relink asks again). */
export function useReferralStatus(handle: string) {
  return useQuery(referralStatusQueryOptions(handle));
}

/** The referrer once there is one (SPEC §4: a referrer handle exists or the status is already_referred). */
export function referrerOf(status: ReferralStatus | undefined): { referred: boolean; handle: string | null } {
  if (!status) return { referred: false, handle: null };
  return {
    referred: status.status === 'already_referred' || Boolean(status.referrerHandle),
    handle: status.referrerHandle,
  };
}
