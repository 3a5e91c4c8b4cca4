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

export const referralStatsQueryOptions = () =>
  queryOptions({ queryKey: referralKeys.stats(), queryFn: ({ signal }) => getReferralStats(signal) });

export function useReferralStats(enabled: boolean) {
  return useQuery({ ...referralStatsQueryOptions(), enabled });
}
