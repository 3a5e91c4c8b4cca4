import { useMutation } from '@tanstack/react-query';
import { applyReferralResponseSchema, normaliseHandle } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { withRetry } from '../../../lib/retry';
import { getReferralStatus } from './get-referral-status';

const sameHandle = (a: string, b: string) =>
  normaliseHandle(a).toLowerCase() === normaliseHandle(b).toLowerCase();

/**
 * After a retried apply answered ALREADY_REFERRED: was it our own earlier attempt that committed (its answer
 * lost to a time-out or a 5xx)? The status tells — the same referrer means the apply worked.
 */
async function appliedByEarlierAttempt(handle: string): Promise<{ referrerHandle: string } | null> {
  try {
    const { referrerHandle } = await getReferralStatus();
    return referrerHandle && sameHandle(referrerHandle, handle) ? { referrerHandle } : null;
  } catch {
    // No proof either way: the ALREADY_REFERRED answer stands.
    return null;
  }
}

/** `POST /referrals/apply {referrerHandle}` with the handle normalised (SPEC §5), through the retry helper. */
export async function applyReferral(referrerHandle: string): Promise<{ referrerHandle: string }> {
  const handle = normaliseHandle(referrerHandle);
  let attempts = 0;
  try {
    const { data } = await withRetry(() => {
      attempts += 1;
      return apiRequest('/referrals/apply', {
        method: 'POST',
        body: { referrerHandle: handle },
        schema: applyReferralResponseSchema,
      });
    });
    return data;
  } catch (error) {
    const retried = attempts > 1;
    if (retried && error instanceof ApiError && error.code === 'ALREADY_REFERRED') {
      const applied = await appliedByEarlierAttempt(handle);
      if (applied) return applied;
    }
    throw error;
  }
}

export function useApplyReferral() {
  return useMutation({ mutationFn: applyReferral });
}
