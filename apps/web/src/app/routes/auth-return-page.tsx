import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AUTH_RETURN_REDIRECT_MS } from '../../config/constants';
import { accountKeys, getAccount } from '../../features/account/api/get-account';
import { pollForConnection } from '../../features/account/poll-connection';
import { getReferralStatus } from '../../features/referrals/api/get-referral-status';
import { referralKeys } from '../../features/referrals/api/referral-keys';
import { storedBrowserId } from '../../lib/browser-id';
import { sleep } from '../../lib/sleep';

/**
 * The auth-return screen of SPEC §2 (`/auth/callback`, `/linked`): a black overlay with a centred image fading
 * in over 1 s while it decides where to go —
 * 1. `error` → logged, home at once;
 * 2. `referral_applied=true` with `referrer_handle` → home after 1.5 s, carrying both so the main page shows
 *    its success banner;
 * 3. otherwise the account is polled (SPEC §9); once connected the referral status is read, and after 1.5 s
 *    the query string is dropped and the browser goes home;
 * 4. not confirmed, or a non-network failure → home.
 */
export function AuthReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const error = params.get('error');
  const referralApplied = params.get('referral_applied') === 'true';
  const referrerHandle = params.get('referrer_handle');

  useEffect(() => {
    const goHome = (search = '') => void navigate(`/${search}`, { replace: true });
    if (error) {
      console.warn(`Account linking did not complete: ${error}`);
      goHome();
      return undefined;
    }
    if (referralApplied && referrerHandle) {
      const search = new URLSearchParams({ referral_applied: 'true', referrer_handle: referrerHandle });
      const timer = setTimeout(() => goHome(`?${search.toString()}`), AUTH_RETURN_REDIRECT_MS);
      return () => clearTimeout(timer);
    }
    // A browser that never started linking has no id, so there is nothing to wait for.
    if (!storedBrowserId()) {
      goHome();
      return undefined;
    }
    const controller = new AbortController();
    const { signal } = controller;
    const finish = async () => {
      const outcome = await pollForConnection(getAccount, signal);
      if (outcome.kind !== 'connected') return goHome();
      client.setQueryData(accountKeys.me(), outcome.account);
      try {
        client.setQueryData(referralKeys.status(), await getReferralStatus(signal));
      } catch {
        // The card reads the status again and offers Retry if it still fails.
      }
      await sleep(AUTH_RETURN_REDIRECT_MS, signal);
      goHome();
    };
    finish().catch(() => undefined);
    return () => controller.abort();
  }, [client, error, navigate, referralApplied, referrerHandle]);

  return (
    <div
      className="auth-return-overlay fixed inset-0 z-50 flex items-center justify-center bg-black"
      role="status"
      aria-live="polite"
    >
      <img
        src="/art/auth-return.svg"
        alt=""
        width={160}
        height={160}
        className="animate-fade-in-1s h-40 w-40 sm:h-56 sm:w-56"
      />
      <span className="sr-only">Linking your account…</span>
    </div>
  );
}
