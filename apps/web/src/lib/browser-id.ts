import { STORAGE_KEYS } from '../config/constants';
import { browserStorage } from './browser-storage';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** crypto.randomUUID exists only in secure contexts; a plain-http LAN deployment still needs a v4 UUID. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The stored per-browser id, or null when this browser has none yet (it has never called the service). */
export function storedBrowserId(): string | null {
  const value = browserStorage.get(STORAGE_KEYS.browserId);
  return value && UUID_PATTERN.test(value) ? value : null;
}

/** The per-browser id of SPEC §3 (sent as X-User-Id): a random UUID created on first use and kept. */
export function getBrowserId(): string {
  const existing = storedBrowserId();
  if (existing) return existing;
  const created = randomUuid();
  browserStorage.set(STORAGE_KEYS.browserId, created);
  return created;
}

/** Forgets the id (unlink): the next call starts as a new, unlinked browser. */
export function clearBrowserId(): void {
  browserStorage.remove(STORAGE_KEYS.browserId);
}
