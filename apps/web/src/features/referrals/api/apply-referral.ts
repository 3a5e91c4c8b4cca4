import { useMutation } from '@tanstack/react-query';
import { applyReferralResponseSchema, normaliseHandle } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { withRetry } from '../../../lib/retry';

/** `POST /referrals/apply {referrerHandle}` with the handle normalised (SPEC §5), through the retry helper. */
export async function applyReferral(referrerHandle: string): Promise<{ referrerHandle: string }> {
  const { data } = await withRetry(() =>
    apiRequest('/referrals/apply', {
      method: 'POST',
      body: { referrerHandle: normaliseHandle(referrerHandle) },
      schema: applyReferralResponseSchema,
    }),
  );
  return data;
}

export function useApplyReferral() {
  return useMutation({ mutationFn: applyReferral });
}
