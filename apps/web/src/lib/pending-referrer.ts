import { HANDLE_PATTERN, normaliseHandle } from '@manaboard/contract';
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../config/constants';
import { browserStorage } from './browser-storage';

// Same-tab writes do not fire `storage`, so the store tells its own subscribers.
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * A handle X could have issued, without its @, or null. `/r/{anything}` is only a referrer when it looks like
 * one: junk would otherwise show as "Referred by …" and be sent to the server at linking.
 */
function asHandle(input: string): string | null {
  const bare = normaliseHandle(input);
  return HANDLE_PATTERN.test(bare) ? bare : null;
}

/** The referrer a visitor arrived with through `/r/{handle}` (leading @ stripped), kept until used or dropped. */
export function getPendingReferrer(): string | null {
  // Checked on read too: storage may hold a value written by an older version of the app.
  return asHandle(browserStorage.get(STORAGE_KEYS.pendingReferrer) ?? '');
}

/** Saves `/r/{handle}`'s handle; anything that is not a valid handle is ignored. */
export function savePendingReferrer(handle: string): void {
  const bare = asHandle(handle);
  if (!bare || bare === getPendingReferrer()) return;
  browserStorage.set(STORAGE_KEYS.pendingReferrer, bare);
  notify();
}

export function clearPendingReferrer(): void {
  if (getPendingReferrer() === null) return;
  browserStorage.remove(STORAGE_KEYS.pendingReferrer);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.pendingReferrer) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The pending referrer as React state, in step with this tab's writes and other tabs' storage events. */
export function usePendingReferrer(): string | null {
  return useSyncExternalStore(subscribe, getPendingReferrer, () => null);
}
