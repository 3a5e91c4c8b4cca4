import { AUTH_RETURN_QUERY } from '@manaboard/contract';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MESSAGE_DISPLAY_MS } from '../../../config/constants';
import { catalogueMessage } from '../../../lib/api-error';
import { clearPendingReferrer, savePendingReferrer } from '../../../lib/pending-referrer';

/**
 * The notice after linking through a referral link: applied (with the referrer's handle, when given), or
 * refused by the server (`referral_error=<code>`: the account is linked, the referrer was not applied).
 */
export type ReferralNotice =
  { kind: 'applied'; referrerHandle: string | null } | { kind: 'refused'; message: string };

/**
 * The pending referrer's life on the main page (SPEC §4): saved from `/r/{handle}`, cleared once the account
 * is connected, and cleared when the URL says how the referral went (`referral_applied=true` or
 * `referral_error`) — then the URL is cleaned at once (a reload must not repeat the notice) and the notice
 * shows for 5 s.
 */
export function useReferralEntry(routeHandle: string | undefined, connected: boolean): ReferralNotice | null {
  const [params, setParams] = useSearchParams();
  const [notice, setNotice] = useState<ReferralNotice | null>(null);
  const referralApplied = params.get(AUTH_RETURN_QUERY.referralApplied) === 'true';
  const referrerHandle = params.get(AUTH_RETURN_QUERY.referrerHandle);
  const referralError = params.get(AUTH_RETURN_QUERY.referralError);

  useEffect(() => {
    if (routeHandle) savePendingReferrer(routeHandle);
  }, [routeHandle]);

  useEffect(() => {
    if (connected) clearPendingReferrer();
  }, [connected]);

  useEffect(() => {
    if (!referralApplied && referralError === null) return;
    clearPendingReferrer();
    setNotice(
      referralApplied
        ? { kind: 'applied', referrerHandle }
        : { kind: 'refused', message: catalogueMessage(referralError ?? '') },
    );
    setParams({}, { replace: true });
  }, [referralApplied, referralError, referrerHandle, setParams]);

  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => setNotice(null), MESSAGE_DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  return notice;
}
