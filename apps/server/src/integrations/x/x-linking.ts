import {
  LinkRefusedError,
  type LinkedProfile,
  type LinkStart,
  type NetworkCredentials,
  type NetworkLinking,
} from '../../social/social-network';
import type { XApi } from './x-api';
import { freshTokens, type XOAuth } from './x-oauth';

/** SPEC §7's routes: X's developer portal registers `{PUBLIC_ORIGIN}/auth/twitter/callback`. */
export const X_LINK_PATHS = {
  startPath: '/auth/twitter/start',
  callbackPath: '/auth/twitter/callback',
} as const;

/**
 * Linking on X (real or simulated): OAuth 2.0 with PKCE through XOAuth, then `users/me` for the profile and the
 * anti-bot facts. The PKCE verifier is the attempt's secret.
 */
export class XLinking implements NetworkLinking {
  readonly name = 'x' as const;
  readonly startPath = X_LINK_PATHS.startPath;
  readonly callbackPath = X_LINK_PATHS.callbackPath;
  readonly needsHandle = false;

  constructor(
    private readonly oauth: XOAuth,
    private readonly api: Pick<XApi, 'me'>,
  ) {}

  async start(input: { callbackUrl: string }): Promise<LinkStart> {
    const { url, state, codeVerifier } = await this.oauth.start(input.callbackUrl);
    return { authorizeUrl: url, state, verifier: codeVerifier };
  }

  async finish(
    callback: URLSearchParams,
    attempt: { state: string; verifier: string; callbackUrl: string },
  ): Promise<{ profile: LinkedProfile; credentials: NetworkCredentials }> {
    let credentials: NetworkCredentials;
    try {
      credentials = await this.oauth.exchange(callback, {
        state: attempt.state,
        redirectUri: attempt.callbackUrl,
        codeVerifier: attempt.verifier,
      });
    } catch (error) {
      throw new LinkRefusedError('X refused the code exchange', { cause: error });
    }
    const me = (await this.api.me(credentials.accessToken)).data;
    if (!me) throw new LinkRefusedError('X gave no profile for the new token');
    const profile: LinkedProfile = {
      networkUserId: me.id,
      handle: me.username,
      avatarUrl: me.profile_image_url ?? null,
      createdAt: me.created_at ? new Date(me.created_at) : null,
      followers: me.public_metrics?.followers_count ?? 0,
    };
    return { profile, credentials };
  }

  fresh(credentials: NetworkCredentials, now: number): Promise<NetworkCredentials> {
    return freshTokens(credentials, this.oauth, now);
  }

  revoke(token: string): Promise<void> {
    return this.oauth.revoke(token);
  }
}
