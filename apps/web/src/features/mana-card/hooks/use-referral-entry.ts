import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MESSAGE_DISPLAY_MS } from '../../../config/constants';
import { clearPendingReferrer, savePendingReferrer } from '../../referrals/pending-referrer';

/** The success banner after X returned with `referral_applied=true`: the referrer's handle, when given. */
export type AppliedReferral = { referrerHandle: string | null };

/**
 * The pending referrer's life on the main page (SPEC §4): saved from `/r/{handle}`, cleared once the account
 * is connected, and cleared when the URL says `referral_applied=true` — then the URL is cleaned and a success
 * banner shows for 5 s.
 */
export function useReferralEntry(
  routeHandle: string | undefined,
  connected: boolean,
): AppliedReferral | null {
  const [params, setParams] = useSearchParams();
  const [applied, setApplied] = useState<AppliedReferral | null>(null);
  const referralApplied = params.get('referral_applied') === 'true';
  const referrerHandle = params.get('referrer_handle');

  useEffect(() => {
    if (routeHandle) savePendingReferrer(routeHandle);
  }, [routeHandle]);

  useEffect(() => {
    if (connected) clearPendingReferrer();
  }, [connected]);

  useEffect(() => {
    if (!referralApplied) return;
    clearPendingReferrer();
    setApplied({ referrerHandle });
    setParams({}, { replace: true });
  }, [referralApplied, referrerHandle, setParams]);

  useEffect(() => {
    if (!applied) return undefined;
    const timer = setTimeout(() => setApplied(null), MESSAGE_DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [applied]);

  return applied;
}
