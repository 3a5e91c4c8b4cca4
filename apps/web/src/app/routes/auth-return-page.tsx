import { AUTH_RETURN_QUERY } from '@manaboard/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AUTH_RETURN_REDIRECT_MS } from '../../config/constants';
import { accountKeys, getAccount } from '../../lib/account';
import { pollForConnection } from '../../features/account/poll-connection';
import { getReferralStatus } from '../../features/mana-card/api/get-referral-status';
import { referralKeys } from '../../features/mana-card/api/referral-keys';
import { storedBrowserId } from '../../lib/browser-id';
import { sleep } from '../../lib/sleep';

/**
 * The auth-return screen of SPEC §2 (`/auth/callback`, `/linked`): a black overlay with a centred image fading
 * in over 1 s while it decides where to go —
 * 1. `error` (any code, `rate_limited` included) → logged with console.warn (an expected failure: console.error
 *    is for bugs), home at once;
 * 2. `referral_applied=true` with `referrer_handle` → home after 1.5 s, carrying both so the main page shows
 *    its success banner;
 * 3. otherwise the account is polled (SPEC §9); once connected the referral status is read, and after 1.5 s
 *    the query string is dropped and the browser goes home;
 * 4. not confirmed, or a non-network failure → home.
 * In 3 and 4 a `referral_error` (linked, but the referrer was refused) goes home with the browser, alone, so
 * the main page can say why the referral did not happen.
 */
export function AuthReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const error = params.get(AUTH_RETURN_QUERY.error);
  const referralApplied = params.get(AUTH_RETURN_QUERY.referralApplied) === 'true';
  const referrerHandle = params.get(AUTH_RETURN_QUERY.referrerHandle);
  const referralError = params.get(AUTH_RETURN_QUERY.referralError);

  useEffect(() => {
    const goHome = (search = '') => void navigate(`/${search}`, { replace: true });
    if (error) {
      console.warn(`Account linking did not complete: ${error}`);
      goHome();
      return undefined;
    }
    if (referralApplied && referrerHandle) {
      const search = new URLSearchParams({
        [AUTH_RETURN_QUERY.referralApplied]: 'true',
        [AUTH_RETURN_QUERY.referrerHandle]: referrerHandle,
      });
      const timer = setTimeout(() => goHome(`?${search.toString()}`), AUTH_RETURN_REDIRECT_MS);
      return () => clearTimeout(timer);
    }
    // A browser that never started linking has no id, so there is nothing to wait for.
    if (!storedBrowserId()) {
      goHome();
      return undefined;
    }
    const refusal = referralError
      ? `?${new URLSearchParams({ [AUTH_RETURN_QUERY.referralError]: referralError }).toString()}`
      : '';
    const controller = new AbortController();
    const { signal } = controller;
    const finish = async () => {
      const outcome = await pollForConnection(getAccount, signal);
      if (outcome.kind !== 'connected') return goHome(refusal);
      client.setQueryData(accountKeys.me(), outcome.account);
      try {
        const status = await getReferralStatus(signal);
        // pollForConnection only reports `connected` with a handle.
        if (outcome.account.handle) client.setQueryData(referralKeys.status(outcome.account.handle), status);
      } catch {
        // The card reads the status again and offers Retry if it still fails.
      }
      await sleep(AUTH_RETURN_REDIRECT_MS, signal);
      goHome(refusal);
    };
    finish().catch(() => undefined);
    return () => controller.abort();
  }, [client, error, navigate, referralApplied, referralError, referrerHandle]);

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
