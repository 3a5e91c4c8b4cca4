import * as oauth from 'oauth4webapi';
import type { XConfig } from '../../config/config';
import { XApiError } from './x-errors';

export type XTokens = {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms when the access token stops working (X: 2 h after issue). */
  expiresAt: number;
  scopes: string[];
};

export type AuthorizationStart = { url: string; state: string; codeVerifier: string };

/**
 * OAuth 2.0 authorization code with PKCE (S256) against X or the simulation, through oauth4webapi: the
 * authorize URL, the code exchange, refresh (X rotates refresh tokens) and revocation. Confidential client:
 * the secret goes in HTTP Basic auth, as X requires.
 */
export class XOAuth {
  private readonly as: oauth.AuthorizationServer;
  private readonly client: oauth.Client;
  private readonly auth: oauth.ClientAuth;
  private readonly requestOptions: { [oauth.allowInsecureRequests]?: boolean };

  constructor(
    private readonly config: Pick<
      XConfig,
      'authorizeUrl' | 'tokenUrl' | 'revokeUrl' | 'clientId' | 'clientSecret' | 'scopes'
    >,
    private readonly now: () => number = Date.now,
  ) {
    this.as = {
      issuer: new URL(config.authorizeUrl).origin,
      authorization_endpoint: config.authorizeUrl,
      token_endpoint: config.tokenUrl,
      revocation_endpoint: config.revokeUrl,
    };
    this.client = { client_id: config.clientId };
    this.auth = oauth.ClientSecretBasic(config.clientSecret);
    // The simulation runs on plain http on this machine; real X is https only.
    const insecure = [config.tokenUrl, config.revokeUrl].some((u) => u.startsWith('http:'));
    this.requestOptions = insecure ? { [oauth.allowInsecureRequests]: true } : {};
  }

  /** A fresh state and PKCE verifier, and the URL to send the browser to. */
  async start(redirectUri: string): Promise<AuthorizationStart> {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(this.config.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', this.config.scopes.join(' '));
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return { url: url.href, state, codeVerifier };
  }

  /**
   * Checks the callback's state (and error) and exchanges the code. Throws XApiError('oauth', …) with X's
   * error text when X refuses.
   */
  async exchange(
    callback: URLSearchParams,
    expected: { state: string; redirectUri: string; codeVerifier: string },
  ): Promise<XTokens> {
    try {
      const params = oauth.validateAuthResponse(this.as, this.client, callback, expected.state);
      const response = await oauth.authorizationCodeGrantRequest(
        this.as,
        this.client,
        this.auth,
        params,
        expected.redirectUri,
        expected.codeVerifier,
        this.requestOptions,
      );
      return this.tokens(await oauth.processAuthorizationCodeResponse(this.as, this.client, response));
    } catch (error) {
      throw toXError('oauth2/token', error);
    }
  }

  /** Trades a refresh token for new tokens (the old refresh token stops working: X rotates them). */
  async refresh(refreshToken: string): Promise<XTokens> {
    try {
      const response = await oauth.refreshTokenGrantRequest(
        this.as,
        this.client,
        this.auth,
        refreshToken,
        this.requestOptions,
      );
      return this.tokens(await oauth.processRefreshTokenResponse(this.as, this.client, response));
    } catch (error) {
      throw toXError('oauth2/token', error);
    }
  }

  /** Revokes a token (on unlink). */
  async revoke(token: string): Promise<void> {
    try {
      const response = await oauth.revocationRequest(
        this.as,
        this.client,
        this.auth,
        token,
        this.requestOptions,
      );
      await oauth.processRevocationResponse(response);
    } catch (error) {
      throw toXError('oauth2/revoke', error);
    }
  }

  private tokens(result: oauth.TokenEndpointResponse): XTokens {
    return {
      accessToken: result.access_token,
      refreshToken: result.refresh_token,
      expiresAt: this.now() + (result.expires_in ?? 7200) * 1000,
      scopes: (result.scope ?? '').split(/\s+/).filter(Boolean),
    };
  }
}

/** Margin before expiry at which an access token is refreshed rather than used. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

/**
 * The member's tokens, refreshed first when the access token expires within the margin and a refresh token
 * exists. Returns the same object when nothing had to change.
 */
export async function freshTokens(tokens: XTokens, oauthClient: XOAuth, now: number): Promise<XTokens> {
  if (tokens.expiresAt - now > REFRESH_MARGIN_MS) return tokens;
  if (!tokens.refreshToken)
    throw new XApiError('oauth2/token', 401, 'access token expired and no refresh token');
  return oauthClient.refresh(tokens.refreshToken);
}

function toXError(endpoint: string, error: unknown): XApiError {
  if (error instanceof XApiError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    return new XApiError(endpoint, error.status, error.error_description ?? error.error);
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new XApiError(endpoint, 0, error.error_description ?? error.error);
  }
  const message = error instanceof Error ? error.message : 'failed';
  return new XApiError(endpoint, 0, message, error instanceof TypeError ? 'network' : 'http');
}
