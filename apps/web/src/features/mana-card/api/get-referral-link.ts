import { queryOptions, useQuery } from '@tanstack/react-query';
import { emptyBodySchema, referralLinkResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { referralKeys } from './referral-keys';

export type ReferralLink = { slug: string; url: string };

/** `POST /referrals/link {}` → the member's link (`{origin}/r/@{handle}`); a failure is only logged (SPEC §8). */
export async function getReferralLink(signal?: AbortSignal): Promise<ReferralLink> {
  try {
    const { data } = await apiRequest('/referrals/link', {
      method: 'POST',
      body: emptyBodySchema.parse({}),
      schema: referralLinkResponseSchema,
      ...(signal ? { signal } : {}),
    });
    return data;
  } catch (error) {
    if (!signal?.aborted) console.warn('Could not generate the referral link:', error);
    throw error;
  }
}

// The link only depends on the handle, so it is read like data (a POST only because the server may create it).
export const referralLinkQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: referralKeys.link(handle),
    queryFn: ({ signal }) => getReferralLink(signal),
    retry: false,
  });

/** The link of the member whose handle is given (keyed by it, so a relink asks again). */
export function useReferralLink(handle: string) {
  return useQuery(referralLinkQueryOptions(handle));
}
