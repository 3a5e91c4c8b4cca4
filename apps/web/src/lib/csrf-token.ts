import { CSRF_TOKEN_LIFETIME_MS, STORAGE_KEYS } from '../config/constants';
import { browserStorage } from './browser-storage';

/** What storage holds for the CSRF token of SPEC §3: nothing, a token past its expiry, or a usable one. */
export type StoredCsrfToken = { state: 'none' } | { state: 'stale' } | { state: 'valid'; token: string };

export function readCsrfToken(now = Date.now()): StoredCsrfToken {
  const raw = browserStorage.get(STORAGE_KEYS.csrfToken);
  if (!raw) return { state: 'none' };
  try {
    const parsed = JSON.parse(raw) as { token?: unknown; expiresAt?: unknown };
    if (typeof parsed.token !== 'string' || typeof parsed.expiresAt !== 'number') return { state: 'none' };
    return parsed.expiresAt > now ? { state: 'valid', token: parsed.token } : { state: 'stale' };
  } catch {
    return { state: 'none' };
  }
}

/** Keeps a fresh token with its expiry: the server honours it for 23 hours. */
export function storeCsrfToken(token: string, now = Date.now()): void {
  browserStorage.set(
    STORAGE_KEYS.csrfToken,
    JSON.stringify({ token, expiresAt: now + CSRF_TOKEN_LIFETIME_MS }),
  );
}

export function clearCsrfToken(): void {
  browserStorage.remove(STORAGE_KEYS.csrfToken);
}
