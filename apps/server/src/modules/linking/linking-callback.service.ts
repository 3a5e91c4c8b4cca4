import type { AuthCallbackError } from '@manaboard/contract';
import { AppError, reasonOf } from '../../lib/errors';
import type { LinkedProfile, NetworkCredentials } from '../../social/social-network';
import { recordAudit } from '../audit/audit.repository';
import { applyReferral, type ReferralDeps } from '../referrals/referrals.service';
import * as accounts from './accounts.repository';
import { nonceMatches } from './linking-nonce';
import * as attempts from './oauth-attempts.repository';
import { callbackUrl, releaseIfUnbound, revokeGrant, type LinkingDeps } from './linking.service';

/**
 * Completes linking when the network sends the browser back: the state is consumed once (replays and strangers'
 * states fail), an expired attempt ends it, the browser must be the one that started (its nonce cookie: otherwise
 * a victim approving an attacker's authorize URL would bind the victim's account to the attacker's browser),
 * the network's error ends it, the adapter finishes the grant with the attempt's stored secret and reads the
 * member's profile, the account is upserted by its stable network id and this browser bound, and the referrer given at the start applied
 * when the rules allow. Always answers with where to send the browser: `redirectAfter` with
 * `referral_applied=true&referrer_handle=…` on a referral, or with `error=<code>` on any failure.
 */
export async function completeLinking(
  deps: LinkingDeps & { referrals: ReferralDeps },
  params: URLSearchParams,
  nonce: string | undefined,
): Promise<{ redirect: string }> {
  const fallback = `${deps.publicOrigin}/auth/callback`;
  const fail = (to: string, error: AuthCallbackError) => ({ redirect: withQuery(to, { error }) });

  const state = params.get('state');
  const attempt = state ? await attempts.consumeAttempt(deps.db, state) : undefined;
  if (!attempt?.browser_hash) return fail(fallback, 'invalid_state');
  const browserHash = attempt.browser_hash;
  const back = attempt.redirect_after;
  // Expiry first: the cookie lives as long as the attempt, so a late return is told it was late.
  if (attempt.expires_at.getTime() <= deps.now()) return fail(back, 'state_expired');
  // The attempt stays consumed: whoever holds the authorize URL cannot try again from another browser.
  if (!nonceMatches(nonce, attempt.nonce_hash)) {
    deps.log.warn('OAuth callback from a browser that did not start the attempt');
    return fail(back, 'invalid_state');
  }
  if (params.has('error')) return fail(back, 'access_denied');

  const granted = await exchange(deps, params, attempt.state, attempt.code_verifier);
  if (!granted) return fail(back, 'exchange_failed');
  const { credentials: tokens, profile } = granted;

  const now = new Date(deps.now());
  const sealedAccessToken = await deps.vault.seal(tokens.accessToken);
  const sealedRefreshToken = tokens.refreshToken ? await deps.vault.seal(tokens.refreshToken) : null;
  const { account, released, replaced } = await deps.db.transaction().execute(async (trx) => {
    // The tokens this login replaces (locked, so a concurrent refresh cannot slip in between).
    const before = await accounts.lockAccountByNetworkUserId(trx, profile.networkUserId);
    const row = await accounts.upsertAccount(trx, {
      networkUserId: profile.networkUserId,
      handle: profile.handle,
      avatarUrl: profile.avatarUrl,
      networkCreatedAt: profile.createdAt,
      followers: profile.followers,
      sealedAccessToken,
      sealedRefreshToken,
      tokenExpiresAt: new Date(tokens.expiresAt),
      scopes: tokens.scopes.join(' '),
      now,
    });
    const previous = await accounts.bindBrowser(trx, browserHash, row.id, now);
    await recordAudit(trx, {
      actor: `account:${row.id}`,
      action: 'account.link',
      subject: row.id,
      details: {
        network: deps.network.name,
        networkUserId: profile.networkUserId,
        handle: profile.handle,
        ...(previous ? { replacedAccountId: previous } : {}),
      },
    });
    // A browser that switches accounts leaves the old one; if nobody else uses it, its grant ends too.
    return {
      account: row,
      released: previous ? await releaseIfUnbound(trx, previous, now) : null,
      replaced: before,
    };
  });
  if (released) await revokeGrant(deps, released);
  // The new grant supersedes the old one: revoke it rather than leave a live token nobody will use.
  if (replaced) await revokeGrant(deps, replaced);
  deps.log.info({ accountId: account.id }, 'account linked');

  if (!attempt.referrer_slug) return { redirect: back };
  try {
    const { referrerHandle } = await applyReferral(
      deps.referrals,
      account,
      attempt.referrer_slug,
      `account:${account.id}`,
    );
    return { redirect: withQuery(back, { referral_applied: 'true', referrer_handle: referrerHandle }) };
  } catch (error) {
    // Linking succeeded; only the referral was refused (the member can see why by applying from the card).
    if (!(error instanceof AppError)) throw error;
    return { redirect: withQuery(back, { referral_error: error.code }) };
  }
}

/** The credentials and the member's profile, or undefined when the network refuses (logged: the reason is theirs). */
async function exchange(
  deps: LinkingDeps,
  params: URLSearchParams,
  state: string,
  verifier: string,
): Promise<{ credentials: NetworkCredentials; profile: LinkedProfile } | undefined> {
  try {
    return await deps.network.finish(params, { state, verifier, callbackUrl: callbackUrl(deps) });
  } catch (error) {
    // Their server's doing (a refusal, or a member's PDS that is down): a warning with the reason, no stack.
    deps.log.warn(
      { reason: reasonOf(error), network: deps.network.name },
      'the network refused the code exchange',
    );
    return undefined;
  }
}

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}
