import { createHmac, timingSafeEqual } from 'node:crypto';

/** SPEC §9: a CSRF token is valid for 23 hours. */
export const CSRF_TOKEN_LIFETIME_MS = 23 * 60 * 60 * 1000;

export type CsrfCheck = 'valid' | 'invalid';

/**
 * Stateless CSRF tokens bound to one browser: `<expiry ms, base36>.<HMAC-SHA256(secret, browserHash.expiry)>`.
 * Any API process with the same secret can check them (no session store), and a token taken from another
 * browser, altered, or past its expiry is refused.
 */
export class CsrfTokens {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    if (secret.length < 32) throw new Error('the CSRF secret must be at least 32 bytes');
  }

  issue(browserHash: string): { token: string; expiresAt: number } {
    const expiresAt = this.now() + CSRF_TOKEN_LIFETIME_MS;
    const expiry = expiresAt.toString(36);
    return { token: `${expiry}.${this.sign(browserHash, expiry)}`, expiresAt };
  }

  check(browserHash: string, token: string): CsrfCheck {
    const [expiry, signature, extra] = token.split('.');
    if (!expiry || !signature || extra !== undefined || !/^[0-9a-z]{1,12}$/.test(expiry)) return 'invalid';
    const expected = Buffer.from(this.sign(browserHash, expiry));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return parseInt(expiry, 36) > this.now() ? 'valid' : 'invalid';
  }

  private sign(browserHash: string, expiry: string): string {
    return createHmac('sha256', this.secret).update(`${browserHash}.${expiry}`).digest('base64url');
  }
}
