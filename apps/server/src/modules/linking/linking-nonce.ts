import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The nonce cookie that ties an OAuth attempt to the browser that started it (login CSRF): without it, anyone
 * could start linking for their own browser id and have a victim approve at the network, binding the victim's
 * account to the attacker's browser. The browser id header cannot do this job: the network sends the browser back
 * with a plain navigation, which carries cookies but no headers of ours.
 */
export const NONCE_COOKIE = 'mb_link_nonce';

/**
 * Only the start and the callback need it, so it is sent to their common folder (X: `/auth/twitter`); Lax still
 * sends it on the network's top-level redirect back to us.
 */
export function nonceCookiePath(startPath: string, callbackPath: string): string {
  const a = startPath.split('/');
  const b = callbackPath.split('/');
  let shared = 0;
  while (shared < a.length - 1 && shared < b.length - 1 && a[shared] === b[shared]) shared += 1;
  return a.slice(0, shared).join('/') || '/';
}

/** A fresh nonce for the cookie, and the hash stored with the attempt (the nonce itself is never stored). */
export function newNonce(): { nonce: string; nonceHash: string } {
  const nonce = randomBytes(32).toString('base64url');
  return { nonce, nonceHash: hashNonce(nonce) };
}

export function hashNonce(nonce: string): string {
  return createHash('sha256').update(nonce).digest('hex');
}

/** True when the cookie's nonce is the one the attempt was started with (constant time: no hash oracle). */
export function nonceMatches(nonce: string | undefined, storedHash: string): boolean {
  if (!nonce) return false;
  const given = Buffer.from(hashNonce(nonce), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `Set-Cookie` for a new attempt: it lives as long as the attempt (`lifetimeMs`), Secure whenever the site is
 * served over https.
 */
export function nonceCookie(nonce: string, publicOrigin: string, lifetimeMs: number, path: string): string {
  return cookie(`${NONCE_COOKIE}=${nonce}`, Math.round(lifetimeMs / 1000), publicOrigin, path);
}

/** `Set-Cookie` that removes the nonce once the callback has used (or refused) it. */
export function clearedNonceCookie(publicOrigin: string, path: string): string {
  return cookie(`${NONCE_COOKIE}=`, 0, publicOrigin, path);
}

function cookie(pair: string, maxAgeSeconds: number, publicOrigin: string, path: string): string {
  const secure = new URL(publicOrigin).protocol === 'https:' ? '; Secure' : '';
  return `${pair}; Max-Age=${maxAgeSeconds}; Path=${path}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The nonce from a `Cookie` header. Parsed by hand rather than with @fastify/cookie: one cookie on one route does
 * not justify a plugin and a dependency. Nonces are base64url, so no decoding is needed; anything else is ignored.
 */
export function readNonce(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== NONCE_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (/^[\w-]{1,128}$/.test(value)) return value;
  }
  return undefined;
}
