import { describe, expect, it } from 'vitest';
import {
  clearedNonceCookie,
  newNonce,
  nonceCookie,
  nonceCookiePath,
  nonceMatches,
  readNonce,
} from './linking-nonce';

const AUTH_PATH = '/auth/twitter';

describe('the linking nonce cookie', () => {
  it('is Secure exactly when the public origin is https', () => {
    expect(nonceCookie('n', 'https://manaboard.example', 600_000, AUTH_PATH)).toBe(
      'mb_link_nonce=n; Max-Age=600; Path=/auth/twitter; HttpOnly; SameSite=Lax; Secure',
    );
    expect(nonceCookie('n', 'http://localhost:3000', 600_000, AUTH_PATH)).not.toContain('Secure');
    expect(clearedNonceCookie('https://manaboard.example', AUTH_PATH)).toMatch(
      /^mb_link_nonce=; Max-Age=0;.*; Secure$/,
    );
  });

  it('is sent only to the folder the start and the callback share', () => {
    expect(nonceCookiePath('/auth/twitter/start', '/auth/twitter/callback')).toBe('/auth/twitter');
    expect(nonceCookiePath('/auth/bluesky/start', '/auth/bluesky/callback')).toBe('/auth/bluesky');
    expect(nonceCookiePath('/link/start', '/oauth/back')).toBe('/');
    expect(nonceCookiePath('/auth/start', '/auth/callback')).toBe('/auth');
  });

  it('matches only the nonce its hash was made from', () => {
    const { nonce, nonceHash } = newNonce();
    expect(nonceMatches(nonce, nonceHash)).toBe(true);
    expect(nonceMatches(newNonce().nonce, nonceHash)).toBe(false);
    expect(nonceMatches(undefined, nonceHash)).toBe(false);
    expect(nonceMatches('', nonceHash)).toBe(false);
    // A corrupt stored hash never matches (and never throws on a length mismatch).
    expect(nonceMatches(nonce, 'abc')).toBe(false);
  });

  it('reads the nonce among other cookies and ignores look-alike names and junk values', () => {
    expect(readNonce('a=1; mb_link_nonce=abc_DEF-123; b=2')).toBe('abc_DEF-123');
    expect(readNonce('mb_link_nonce=abc')).toBe('abc');
    expect(readNonce('x_mb_link_nonce=abc; mb_link_nonce_x=abc')).toBeUndefined();
    expect(readNonce('mb_link_nonce=a%20b')).toBeUndefined();
    expect(readNonce('mb_link_nonce=')).toBeUndefined();
    expect(readNonce(undefined)).toBeUndefined();
    expect(readNonce('garbage;;=;')).toBeUndefined();
  });
});
