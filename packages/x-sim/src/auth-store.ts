import { createHash, randomBytes } from 'node:crypto';

/**
 * A registered app with its exact callback URLs: a confidential client (with a secret, authenticated with HTTP
 * Basic) or, without a secret, a public client that proves itself with PKCE alone (as X allows).
 */
export type SimClient = { clientId: string; clientSecret?: string; redirectUris: string[] };

/** PKCE methods X takes: `S256` (and its SDKs' lower-case `s256`) and `plain`. */
export type ChallengeMethod = 'S256' | 'plain';

/** The PKCE method named in an authorize request, as X reads it; undefined when X would refuse it. */
export function challengeMethodOf(value: string | undefined): ChallengeMethod | undefined {
  if (value === 'S256' || value === 's256') return 'S256';
  if (value === 'plain') return 'plain';
  return undefined;
}

/** Who granted what to which app. */
export type UserGrant = { userId: string; clientId: string; scopes: string[] };

type Grant = UserGrant & { id: number; revoked: boolean };
type AuthCode = UserGrant & {
  redirectUri: string;
  challenge: string;
  method: ChallengeMethod;
  expiresAt: number;
  /** The grant the code was redeemed for (a replayed code revokes it). */
  grantId?: number;
};

/** X's OAuth 2.0 scopes (https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code). */
export const KNOWN_SCOPES = new Set([
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.email',
  'users.read',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'dm.read',
  'dm.write',
  'media.write',
]);

/** An authorization code is good for 30 seconds of simulated time, once. */
export const CODE_LIFETIME_MS = 30_000;
/** Access tokens last two hours. */
export const ACCESS_TOKEN_LIFETIME_MS = 2 * 60 * 60 * 1000;

const newToken = () => randomBytes(24).toString('base64url');
const INVALID_CODE = 'Value passed for the authorization code was invalid.';

/**
 * Authorization codes, access tokens and rotating refresh tokens, on the simulated clock. Tokens hang off a
 * grant, so revoking a refresh token or replaying a code ends every token of that grant (RFC 6749 §4.1.2,
 * RFC 7009).
 */
export class AuthStore {
  private nextGrant = 1;
  private readonly grants = new Map<number, Grant>();
  private readonly codes = new Map<string, AuthCode>();
  private readonly accessTokens = new Map<string, { grantId: number; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  issueCode(
    grant: UserGrant,
    redirectUri: string,
    challenge: string,
    method: ChallengeMethod = 'S256',
  ): string {
    const code = newToken();
    this.codes.set(code, {
      ...grant,
      redirectUri,
      challenge,
      method,
      expiresAt: this.now() + CODE_LIFETIME_MS,
    });
    return code;
  }

  /** Redeems a code once: checks client, expiry, exact redirect URI and the PKCE verifier (S256 or plain). */
  redeemCode(
    code: string,
    clientId: string,
    redirectUri: string,
    verifier: string,
  ): { grant: UserGrant & { id: number } } | { error: string } {
    const stored = this.codes.get(code);
    if (!stored || stored.clientId !== clientId) return { error: INVALID_CODE };
    if (stored.grantId !== undefined) {
      this.revokeGrant(stored.grantId);
      return { error: INVALID_CODE };
    }
    if (stored.expiresAt <= this.now()) {
      this.codes.delete(code);
      return { error: INVALID_CODE };
    }
    if (stored.redirectUri !== redirectUri)
      return { error: 'Value passed for the redirect uri parameter was invalid.' };
    const challenge =
      stored.method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
    if (challenge !== stored.challenge)
      return { error: 'Value passed for the code verifier did not match the code challenge.' };
    const grant: Grant = {
      id: this.nextGrant++,
      userId: stored.userId,
      clientId: stored.clientId,
      scopes: stored.scopes,
      revoked: false,
    };
    this.grants.set(grant.id, grant);
    stored.grantId = grant.id;
    return { grant };
  }

  /** X's token answer; a refresh token only with offline.access. */
  issueTokens(grant: { id: number }) {
    const stored = this.grants.get(grant.id);
    if (!stored || stored.revoked) throw new Error('no live grant');
    const accessToken = newToken();
    this.accessTokens.set(accessToken, {
      grantId: stored.id,
      expiresAt: this.now() + ACCESS_TOKEN_LIFETIME_MS,
    });
    let refreshToken: string | undefined;
    if (stored.scopes.includes('offline.access')) {
      refreshToken = newToken();
      this.refreshTokens.set(refreshToken, stored.id);
    }
    return {
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
      access_token: accessToken,
      scope: stored.scopes.join(' '),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  }

  /** Trades a refresh token for new tokens, once: it rotates. */
  refresh(refreshToken: string, clientId: string) {
    const grantId = this.refreshTokens.get(refreshToken);
    const grant = grantId === undefined ? undefined : this.grants.get(grantId);
    if (!grant || grant.revoked || grant.clientId !== clientId) return undefined;
    this.refreshTokens.delete(refreshToken);
    return this.issueTokens(grant);
  }

  /** Revokes an access token, or a refresh token with its whole grant; unknown tokens are ignored. */
  revoke(value: string, clientId: string): void {
    const access = this.accessTokens.get(value);
    if (access && this.grants.get(access.grantId)?.clientId === clientId) this.accessTokens.delete(value);
    const grantId = this.refreshTokens.get(value);
    if (grantId !== undefined && this.grants.get(grantId)?.clientId === clientId) this.revokeGrant(grantId);
  }

  /** The grant behind a live user access token. */
  userForAccessToken(value: string): UserGrant | undefined {
    const stored = this.accessTokens.get(value);
    if (!stored) return undefined;
    const grant = this.grants.get(stored.grantId);
    if (!grant || grant.revoked || stored.expiresAt <= this.now()) {
      this.accessTokens.delete(value);
      return undefined;
    }
    return grant;
  }

  private revokeGrant(grantId: number): void {
    const grant = this.grants.get(grantId);
    if (grant) grant.revoked = true;
  }
}
