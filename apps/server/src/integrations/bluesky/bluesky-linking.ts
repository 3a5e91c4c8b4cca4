import { randomBytes } from 'node:crypto';
import { OAuthResolverError } from '@atproto/oauth-client-node';
import { BadRequestError, MemberServerDownError, reasonOf } from '../../lib/errors';
import {
  LinkRefusedError,
  type LinkedProfile,
  type LinkStart,
  type NetworkCredentials,
  type NetworkLinking,
} from '../../social/social-network';
import type { AccountAge } from './bluesky-account-age';
import { BlueskyAppView } from './bluesky-appview';
import { INVALID_HANDLE, linkedProfileOf } from './bluesky-profile';
import { BLUESKY_LINK_PATHS, BLUESKY_SCOPE, type BlueskyOAuth } from './bluesky-oauth-client';

/**
 * Linking on Bluesky: AT Protocol OAuth through the official client (handle → DID → PDS, PAR, PKCE, DPoP), then
 * the member's public profile from the AppView (`app.bsky.actor.getProfile`) for the handle, avatar and the
 * anti-bot facts. The DID is the member's stable id: a relink after a handle change updates the same account.
 *
 * The grant itself stays in the OAuth client's session store (sealed, one per DID, refreshed by the client when
 * used); what modules/linking stores as the "access token" is only a reference to it, `{did} {linkId}`, so
 * revoking an old link can tell whether the member's current session is still that link's.
 */
export class BlueskyLinking implements NetworkLinking {
  readonly name = 'bluesky' as const;
  readonly startPath = BLUESKY_LINK_PATHS.startPath;
  readonly callbackPath = BLUESKY_LINK_PATHS.callbackPath;
  readonly needsHandle = true;
  readonly returnOrigin: string;
  private readonly appview: BlueskyAppView;

  constructor(
    private readonly oauth: BlueskyOAuth,
    appviewUrl: string,
    private readonly now: () => number,
    /** The account's creation date from a source the member cannot write (never the profile's createdAt). */
    private readonly accountAge: Pick<AccountAge, 'createdAt'>,
  ) {
    this.appview = new BlueskyAppView(appviewUrl);
    this.returnOrigin = new URL(oauth.redirectUri).origin;
  }

  /**
   * Resolves the handle (or DID) to the member's PDS and its authorization server and pushes the request there.
   * The attempt's secret is the tag of this authorize call, checked again when the callback returns.
   */
  async start(input: { callbackUrl: string; handle?: string }): Promise<LinkStart> {
    if (!input.handle) throw new BadRequestError('Type your Bluesky handle to link your account.');
    const tag = randomBytes(24).toString('base64url');
    let url: URL;
    try {
      url = await this.oauth.client.authorize(input.handle, { state: tag, scope: BLUESKY_SCOPE });
    } catch (error) {
      this.oauth.states.takeIssued(tag);
      throw startError(error, input.handle);
    }
    const state = this.oauth.states.takeIssued(tag);
    if (!state) throw new Error('the OAuth client stored no state for this authorization');
    return { authorizeUrl: url.href, state, verifier: tag };
  }

  async finish(
    callback: URLSearchParams,
    attempt: { state: string; verifier: string; callbackUrl: string },
  ): Promise<{ profile: LinkedProfile; credentials: NetworkCredentials }> {
    let did: string;
    let scope: string;
    let expiresAt: Date | undefined;
    try {
      const { session, state } = await this.oauth.client.callback(callback);
      if (state !== attempt.verifier) {
        await this.oauth.client.revoke(session.did).catch(() => undefined);
        throw new LinkRefusedError('the callback belongs to another authorization');
      }
      did = session.did;
      const info = await session.getTokenInfo(false);
      scope = info.scope;
      expiresAt = info.expiresAt;
    } catch (error) {
      if (error instanceof LinkRefusedError) throw error;
      throw new LinkRefusedError('Bluesky refused the authorization', { cause: error });
    }
    const linkId = randomBytes(16).toString('base64url');
    await this.oauth.sessions.nameLink(did, linkId);
    const profile = await this.profileOf(did);
    return {
      profile,
      credentials: {
        accessToken: `${did} ${linkId}`,
        refreshToken: undefined,
        expiresAt: expiresAt?.getTime() ?? this.now(),
        scopes: scope.split(' ').filter(Boolean),
      },
    };
  }

  /** The OAuth client refreshes a session itself whenever it is used: the reference never changes. */
  fresh(credentials: NetworkCredentials): Promise<NetworkCredentials> {
    return Promise.resolve(credentials);
  }

  /**
   * Ends the link's session at the member's authorization server and forgets it, unless a newer link of the
   * same member owns the session now (the client already revoked the old tokens when that link completed).
   */
  async revoke(token: string): Promise<void> {
    const [did, linkId] = token.split(' ');
    if (!did || !linkId) return;
    if ((await this.oauth.sessions.linkOf(did)) !== linkId) return;
    await this.oauth.client.revoke(did);
  }

  /** The member as the AppView shows them, dated by the PLC directory (bluesky-profile.ts). */
  private profileOf(did: string): Promise<LinkedProfile> {
    return linkedProfileOf(
      { appview: this.appview, accountAge: this.accountAge, identityHandle: (d) => this.identityHandle(d) },
      did,
    );
  }

  private async identityHandle(did: string): Promise<string> {
    const identity = await this.oauth.client.identityResolver.resolve(did);
    return identity.handle === INVALID_HANDLE ? did : identity.handle;
  }
}

/** A handle nobody answers to is the member's mistake (400); an account server that does not answer is not. */
function startError(error: unknown, handle: string): Error {
  if (error instanceof OAuthResolverError && error.message.startsWith('Failed to resolve identity')) {
    return new BadRequestError(`No Bluesky account answers to ${handle}. Check the handle and try again.`);
  }
  if (error instanceof OAuthResolverError) {
    return new MemberServerDownError(
      `The server of ${handle} did not answer. Please try again in a moment.`,
      reasonOf(error),
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
