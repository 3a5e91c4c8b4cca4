import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { AUTH_RETURN_PATHS, HANDLE_PATTERN, normaliseHandle, type AccountInfo } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import type { NetworkCredentials, NetworkLinking } from '../../social/social-network';
import { BadRequestError, reasonOf } from '../../lib/errors';
import type { TokenVault } from '../../security/token-vault';
import { recordAudit } from '../audit/audit.repository';
import * as accounts from './accounts.repository';
import type { AccountRow } from './accounts.repository';
import { newNonce } from './linking-nonce';
import * as attempts from './oauth-attempts.repository';

/** An OAuth attempt must come back within 10 minutes. */
export const OAUTH_ATTEMPT_LIFETIME_MS = 10 * 60 * 1000;

/** Everything linking needs; no HTTP in sight. */
export type LinkingDeps = {
  db: Kysely<Database>;
  /** The network's identity half of the port (the only part of linking that differs per network). */
  network: NetworkLinking;
  vault: TokenVault;
  publicOrigin: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
};

/** The only callback URL registered with the network for this deployment. */
export function callbackUrl(deps: Pick<LinkingDeps, 'publicOrigin' | 'network'>): string {
  return `${deps.publicOrigin}${deps.network.callbackPath}`;
}

/**
 * `redirectAfter` as a safe URL: the public origin plus /auth/callback or /linked, nothing else (no other host,
 * no credentials, no query or fragment), so the callback can never be turned into an open redirect.
 */
export function checkRedirectAfter(publicOrigin: string, redirectAfter: string): string {
  let url: URL;
  try {
    url = new URL(redirectAfter);
  } catch {
    throw new BadRequestError('redirectAfter must be an absolute URL of this site');
  }
  const allowedPath = (AUTH_RETURN_PATHS as readonly string[]).includes(url.pathname);
  if (url.origin !== publicOrigin || !allowedPath || url.username || url.password || url.search || url.hash) {
    throw new BadRequestError(
      `redirectAfter must be ${publicOrigin}${AUTH_RETURN_PATHS[0]} or ${publicOrigin}${AUTH_RETURN_PATHS[1]}`,
    );
  }
  return url.href;
}

/**
 * Starts linking for a browser: a one-time state and PKCE verifier stored for 10 minutes with the browser,
 * the referrer, where to return and the hash of a nonce that only this browser gets (as a cookie, set by the
 * route), and the network's authorize URL to send the browser to. A referrer that cannot be a handle is dropped, not
 * refused: a mangled `/r/…` link must not stop anyone from linking.
 */
export async function startLinking(
  deps: LinkingDeps,
  input: {
    browserHash: string;
    redirectAfter: string;
    referrerSlug: string | undefined;
    /** The account the member named (networks whose sign-in starts from a handle). */
    handle?: string;
  },
): Promise<{ authorizeUrl: string; nonce: string }> {
  const redirectAfter = checkRedirectAfter(deps.publicOrigin, input.redirectAfter);
  const start = await deps.network.start({
    callbackUrl: callbackUrl(deps),
    ...(input.handle !== undefined ? { handle: input.handle } : {}),
  });
  const { nonce, nonceHash } = newNonce();
  const now = deps.now();
  // Expired attempts are worthless; sweeping them here keeps the table small without a job.
  await attempts.deleteExpiredAttempts(deps.db, new Date(now - OAUTH_ATTEMPT_LIFETIME_MS));
  await attempts.insertAttempt(deps.db, {
    state: start.state,
    codeVerifier: start.verifier,
    browserHash: input.browserHash,
    nonceHash,
    referrerSlug: usableReferrer(input.referrerSlug),
    redirectAfter,
    createdAt: new Date(now),
    expiresAt: new Date(now + OAUTH_ATTEMPT_LIFETIME_MS),
  });
  return { authorizeUrl: start.authorizeUrl, nonce };
}

/** The referrer slug as a handle when it can be one, else null (ignored). */
export function usableReferrer(slug: string | undefined): string | null {
  const handle = normaliseHandle(slug ?? '');
  return HANDLE_PATTERN.test(handle) ? handle : null;
}

/** `GET /me/account` for this browser. */
export function accountInfo(account: AccountRow | undefined): AccountInfo {
  return account
    ? { connected: true, handle: account.handle, avatarUrl: account.avatar_url }
    : { connected: false, handle: null, avatarUrl: null };
}

/**
 * Unbinds this browser. When no browser remains bound to the account, its tokens are forgotten and revoked at the network
 * (a failed revoke is logged: the tokens are gone from here either way). Audited.
 */
export async function unlinkBrowser(deps: LinkingDeps, browserHash: string): Promise<{ unlinked: boolean }> {
  const now = new Date(deps.now());
  const released = await deps.db.transaction().execute(async (trx) => {
    const accountId = await accounts.unbindBrowser(trx, browserHash);
    if (!accountId) return undefined;
    await recordAudit(trx, { actor: `account:${accountId}`, action: 'account.unlink', subject: accountId });
    return releaseIfUnbound(trx, accountId, now);
  });
  if (released === undefined) return { unlinked: false };
  if (released) await revokeGrant(deps, released);
  return { unlinked: true };
}

/**
 * An account's tokens when the last browser left it (cleared in the same transaction), else null. The account
 * row is locked before counting: a login binding a browser to it at the same moment holds that row (its upsert),
 * so the count waits for it and sees its browser, instead of clearing the tokens that login just stored.
 */
export async function releaseIfUnbound(
  trx: Transaction<Database>,
  accountId: string,
  now: Date,
): Promise<AccountRow | null> {
  await accounts.lockAccounts(trx, [accountId]);
  if ((await accounts.countBrowsers(trx, accountId)) > 0) return null;
  const account = await accounts.findAccountById(trx, accountId);
  await accounts.clearTokens(trx, accountId, now);
  return account ?? null;
}

/** Revokes what the network granted: the refresh token ends the whole grant; otherwise the access token. */
export async function revokeGrant(deps: LinkingDeps, account: AccountRow): Promise<void> {
  const sealed = account.refresh_token ?? account.access_token;
  if (!sealed) return;
  try {
    await deps.network.revoke(await deps.vault.open(sealed));
  } catch (error) {
    deps.log.warn(
      { reason: reasonOf(error), accountId: account.id, network: deps.network.name },
      'revoking the token failed',
    );
  }
}

/**
 * A member's usable access token for calls made on their behalf (their likes): refreshed first when it is
 * about to expire, the rotated tokens sealed and stored. Undefined when the member has no tokens.
 */
export async function memberAccessToken(deps: LinkingDeps, accountId: string): Promise<string | undefined> {
  const account = await accounts.findAccountById(deps.db, accountId);
  if (!account?.access_token || !account.token_expires_at) return undefined;
  const stored: NetworkCredentials = {
    accessToken: await deps.vault.open(account.access_token),
    refreshToken: account.refresh_token ? await deps.vault.open(account.refresh_token) : undefined,
    expiresAt: account.token_expires_at.getTime(),
    scopes: account.scopes.split(' ').filter(Boolean),
  };
  const fresh = await deps.network.fresh(stored, deps.now());
  if (fresh !== stored) {
    await accounts.updateTokens(deps.db, accountId, {
      sealedAccessToken: await deps.vault.seal(fresh.accessToken),
      sealedRefreshToken: fresh.refreshToken ? await deps.vault.seal(fresh.refreshToken) : null,
      expiresAt: new Date(fresh.expiresAt),
      now: new Date(deps.now()),
    });
  }
  return fresh.accessToken;
}
