import { queryOptions, useQuery } from '@tanstack/react-query';
import { referralStatsResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { referralKeys } from './referral-keys';

/** `GET /referrals/stats` → how many members this member referred (shown on the card with the stats issue). */
export async function getReferralStats(signal?: AbortSignal): Promise<{ refereeCount: number }> {
  const { data } = await apiRequest('/referrals/stats', {
    schema: referralStatsResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return data;
}

export const referralStatsQueryOptions = (handle: string) =>
  queryOptions({ queryKey: referralKeys.stats(handle), queryFn: ({ signal }) => getReferralStats(signal) });

/** The stats of the member whose handle is given (keyed by it, so a relink asks again). */
export function useReferralStats(handle: string) {
  return useQuery(referralStatsQueryOptions(handle));
}
