import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBrowserId } from './browser-id';
import { CSRF_TOKEN_LIFETIME_MS, CsrfTokens } from './csrf';

describe('CSRF tokens', () => {
  const secret = randomBytes(32);
  let now = Date.parse('2026-11-22T12:00:00Z');
  const tokens = new CsrfTokens(secret, () => now);
  const browser = hashBrowserId(randomUUID());

  it('are valid for their own browser for 23 hours, then stale', () => {
    const { token, expiresAt } = tokens.issue(browser);
    expect(expiresAt - now).toBe(CSRF_TOKEN_LIFETIME_MS);
    expect(tokens.check(browser, token)).toBe('valid');
    const issuedAt = now;
    now = issuedAt + CSRF_TOKEN_LIFETIME_MS - 1;
    expect(tokens.check(browser, token)).toBe('valid');
    now = issuedAt + CSRF_TOKEN_LIFETIME_MS;
    expect(tokens.check(browser, token)).toBe('invalid');
    now = issuedAt;
  });

  it('are refused for another browser, another secret, or when altered', () => {
    const { token } = tokens.issue(browser);
    expect(tokens.check(hashBrowserId(randomUUID()), token)).toBe('invalid');
    expect(new CsrfTokens(randomBytes(32), () => now).check(browser, token)).toBe('invalid');
    const [expiry, signature] = token.split('.');
    const later = (parseInt(expiry ?? '0', 36) + 86_400_000).toString(36);
    expect(tokens.check(browser, `${later}.${signature}`)).toBe('invalid');
  });

  it('refuse any junk without throwing', () => {
    fc.assert(
      fc.property(fc.string(), (junk) => {
        expect(tokens.check(browser, junk)).toBe('invalid');
      }),
    );
  });
});
