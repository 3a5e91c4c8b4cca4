import { createHash, randomBytes } from 'node:crypto';

/**
 * The console's own cookies. The session cookie is the only credential of an admin: HttpOnly (no script reads
 * it), SameSite=Strict (no other site's page can make the browser send it), Secure whenever the site is served
 * over https, Path=/. It is never the member pages' browser id, which scripts keep in localStorage.
 */
export const ADMIN_SESSION_COOKIE = 'mb_admin_session';

/**
 * Ties a console sign-in attempt to the browser that started it (as the member linking nonce does), under its own
 * name so a member's linking in the same browser never clobbers it. Lax: the network's redirect back is a
 * cross-site top-level navigation.
 */
export const ADMIN_NONCE_COOKIE = 'mb_admin_nonce';

export function newSessionId(): { id: string; idHash: string } {
  const id = randomBytes(32).toString('base64url');
  return { id, idHash: hashSessionId(id) };
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

function secure(publicOrigin: string): string {
  return new URL(publicOrigin).protocol === 'https:' ? '; Secure' : '';
}

export function sessionCookie(id: string, publicOrigin: string, maxAgeMs: number): string {
  const maxAge = Math.round(maxAgeMs / 1000);
  return `${ADMIN_SESSION_COOKIE}=${id}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Strict${secure(publicOrigin)}`;
}

export function clearedSessionCookie(publicOrigin: string): string {
  return `${ADMIN_SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict${secure(publicOrigin)}`;
}

export function adminNonceCookie(
  nonce: string,
  publicOrigin: string,
  maxAgeMs: number,
  path: string,
): string {
  const maxAge = Math.round(maxAgeMs / 1000);
  return `${ADMIN_NONCE_COOKIE}=${nonce}; Max-Age=${maxAge}; Path=${path}; HttpOnly; SameSite=Lax${secure(publicOrigin)}`;
}

export function clearedAdminNonceCookie(publicOrigin: string, path: string): string {
  return `${ADMIN_NONCE_COOKIE}=; Max-Age=0; Path=${path}; HttpOnly; SameSite=Lax${secure(publicOrigin)}`;
}

/** One cookie's value from a `Cookie` header; only base64url values of sane length are taken. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (/^[\w-]{16,128}$/.test(value)) return value;
  }
  return undefined;
}
