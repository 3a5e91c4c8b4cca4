import type { AuthCallbackError } from '@manaboard/contract';
import { AppError } from '../../errors';
import type { XTokens } from '../../integrations/x/x-oauth';
import type { XUser } from '../../integrations/x/x-schemas';
import { recordAudit } from '../audit/audit.repository';
import { applyReferral, type ReferralDeps } from '../referrals/referrals.service';
import * as accounts from './accounts.repository';
import { nonceMatches } from './linking-nonce';
import * as attempts from './oauth-attempts.repository';
import { callbackUrl, releaseIfUnbound, revokeAtX, type LinkingDeps } from './linking.service';

/**
 * Completes linking when X sends the browser back: the state is consumed once (replays and strangers' states
 * fail), an expired attempt ends it, the browser must be the one that started (its nonce cookie: otherwise a
 * victim approving an attacker's authorize URL would bind the victim's X account to the attacker's browser),
 * X's error ends it, the code is exchanged with the stored PKCE verifier,
 * `users/me` is read, the account upserted and this browser bound, and the referrer given at the start applied
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
  if (!attempt) return fail(fallback, 'invalid_state');
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
  const { tokens, me } = granted;

  const now = new Date(deps.now());
  const sealedAccessToken = await deps.vault.seal(tokens.accessToken);
  const sealedRefreshToken = tokens.refreshToken ? await deps.vault.seal(tokens.refreshToken) : null;
  const { account, released, replaced } = await deps.db.transaction().execute(async (trx) => {
    // The tokens this login replaces (locked, so a concurrent refresh cannot slip in between).
    const before = await accounts.lockAccountByXUserId(trx, me.id);
    const row = await accounts.upsertAccount(trx, {
      xUserId: me.id,
      handle: me.username,
      avatarUrl: me.profile_image_url ?? null,
      xCreatedAt: me.created_at ? new Date(me.created_at) : null,
      followers: me.public_metrics?.followers_count ?? 0,
      sealedAccessToken,
      sealedRefreshToken,
      tokenExpiresAt: new Date(tokens.expiresAt),
      scopes: tokens.scopes.join(' '),
      now,
    });
    const previous = await accounts.bindBrowser(trx, attempt.browser_hash, row.id, now);
    await recordAudit(trx, {
      actor: `account:${row.id}`,
      action: 'account.link',
      subject: row.id,
      details: { xUserId: me.id, handle: me.username, ...(previous ? { replacedAccountId: previous } : {}) },
    });
    // A browser that switches accounts leaves the old one; if nobody else uses it, its grant ends too.
    return {
      account: row,
      released: previous ? await releaseIfUnbound(trx, previous, now) : null,
      replaced: before,
    };
  });
  if (released) await revokeAtX(deps, released);
  // The new grant supersedes the old one: revoke it rather than leave a live token nobody will use.
  if (replaced) await revokeAtX(deps, replaced);
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

/** The tokens and the member's X profile, or undefined when X refuses (logged: the reason is X's). */
async function exchange(
  deps: LinkingDeps,
  params: URLSearchParams,
  state: string,
  codeVerifier: string,
): Promise<{ tokens: XTokens; me: XUser } | undefined> {
  try {
    const tokens = await deps.x.oauth.exchange(params, {
      state,
      redirectUri: callbackUrl(deps.publicOrigin),
      codeVerifier,
    });
    const me = (await deps.x.api.me(tokens.accessToken)).data;
    return me ? { tokens, me } : undefined;
  } catch (error) {
    deps.log.warn({ err: error }, 'X refused the code exchange');
    return undefined;
  }
}

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}
