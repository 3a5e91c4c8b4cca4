import type { AdminSignInError } from '@manaboard/contract/admin';
import type { AdminConfig } from '../../config/config';
import { reasonOf } from '../../lib/errors';
import { recordAudit } from '../audit/audit.repository';
import { newNonce, nonceMatches } from '../linking/linking-nonce';
import { callbackUrl, OAUTH_ATTEMPT_LIFETIME_MS, type LinkingDeps } from '../linking/linking.service';
import * as attempts from '../linking/oauth-attempts.repository';
import type { LinkedProfile } from '../../social/social-network';
import { adminActor, isAdminAccount } from './admin-accounts';
import { newSessionId } from './admin-cookies';
import * as sessions from './admin-sessions.repository';

/** What the console's sign-in needs: linking's network port and clock, and the admin configuration. */
export type AdminAuthDeps = Pick<LinkingDeps, 'db' | 'network' | 'publicOrigin' | 'now' | 'log' | 'vault'> & {
  admin: AdminConfig;
};

/** Where the console lives; a sign-in always ends there. */
export function consoleUrl(publicOrigin: string): string {
  return `${publicOrigin}/admin`;
}

/**
 * Starts a console sign-in at the network, on the same registered callback as member linking: the attempt is
 * stored with purpose 'admin', no member browser, and the hash of a nonce only this browser gets (its cookie).
 */
export async function startAdminSignIn(
  deps: AdminAuthDeps,
  input: { handle?: string },
): Promise<{ authorizeUrl: string; nonce: string }> {
  const start = await deps.network.start({
    callbackUrl: callbackUrl(deps),
    ...(input.handle !== undefined ? { handle: input.handle } : {}),
  });
  const { nonce, nonceHash } = newNonce();
  const now = deps.now();
  await attempts.deleteExpiredAttempts(deps.db, new Date(now - OAUTH_ATTEMPT_LIFETIME_MS));
  await attempts.insertAttempt(deps.db, {
    state: start.state,
    codeVerifier: start.verifier,
    browserHash: null,
    nonceHash,
    referrerSlug: null,
    redirectAfter: consoleUrl(deps.publicOrigin),
    createdAt: new Date(now),
    expiresAt: new Date(now + OAUTH_ATTEMPT_LIFETIME_MS),
    purpose: 'admin',
  });
  return { authorizeUrl: start.authorizeUrl, nonce };
}

export type AdminSignInResult = { redirect: string; session?: { id: string; maxAgeMs: number } };

/**
 * The network's return for an admin attempt: the state consumed once, expiry, the starting browser's nonce, the
 * network's answer, then the profile. The network's grant is ended at once (the console needs nothing but who
 * this is). An account ADMIN_ACCOUNTS does not name gets no session and is told why; an admin gets a session
 * (random id, only its hash stored) and the sign-in is audited.
 */
export async function completeAdminSignIn(
  deps: AdminAuthDeps,
  params: URLSearchParams,
  nonce: string | undefined,
): Promise<AdminSignInResult> {
  const back = consoleUrl(deps.publicOrigin);
  const fail = (error: AdminSignInError): AdminSignInResult => ({ redirect: `${back}?error=${error}` });
  const state = params.get('state');
  const attempt = state ? await attempts.consumeAttempt(deps.db, state, 'admin') : undefined;
  if (!attempt) return fail('invalid_state');
  if (attempt.expires_at.getTime() <= deps.now()) return fail('state_expired');
  if (!nonceMatches(nonce, attempt.nonce_hash)) {
    deps.log.warn('console sign-in callback from a browser that did not start it');
    return fail('invalid_state');
  }
  if (params.has('error')) return fail('access_denied');

  let profile: LinkedProfile;
  try {
    const granted = await deps.network.finish(params, {
      state: attempt.state,
      verifier: attempt.code_verifier,
      callbackUrl: callbackUrl(deps),
    });
    profile = granted.profile;
    await endGrant(deps, granted.credentials.refreshToken ?? granted.credentials.accessToken);
  } catch (error) {
    deps.log.warn(
      { reason: reasonOf(error), network: deps.network.name },
      'the network refused the console sign-in',
    );
    return fail('exchange_failed');
  }

  const who = { handle: profile.handle, networkUserId: profile.networkUserId };
  if (!isAdminAccount(deps.admin.accounts, who)) {
    await recordAudit(deps.db, {
      actor: `network:@${who.handle} (${who.networkUserId})`,
      action: 'admin.sign_in_refused',
      subject: profile.networkUserId,
      details: { reason: 'not in ADMIN_ACCOUNTS' },
    });
    deps.log.info({ networkUserId: profile.networkUserId }, 'console sign-in refused: not an admin');
    return fail('not_admin');
  }
  const now = new Date(deps.now());
  await sessions.deleteExpiredSessions(deps.db, now, new Date(now.getTime() - deps.admin.sessionIdleMs));
  const { id, idHash } = newSessionId();
  await deps.db.transaction().execute(async (trx) => {
    await sessions.insertSession(trx, {
      idHash,
      ...who,
      now,
      expiresAt: new Date(now.getTime() + deps.admin.sessionMaxMs),
    });
    await recordAudit(trx, { actor: adminActor(who), action: 'admin.sign_in', subject: who.networkUserId });
  });
  deps.log.info({ networkUserId: who.networkUserId }, 'console sign-in');
  return { redirect: back, session: { id, maxAgeMs: deps.admin.sessionMaxMs } };
}

/** The console keeps no network token: revoke the grant (a failed revoke is logged; nothing was stored). */
async function endGrant(deps: AdminAuthDeps, token: string): Promise<void> {
  try {
    await deps.network.revoke(token);
  } catch (error) {
    deps.log.warn(
      { reason: reasonOf(error), network: deps.network.name },
      'revoking the console sign-in grant failed',
    );
  }
}
