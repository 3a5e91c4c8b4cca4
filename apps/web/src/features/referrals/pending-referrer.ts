import { normaliseHandle } from '@manaboard/contract';
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../config/constants';
import { browserStorage } from '../../lib/browser-storage';

// Same-tab writes do not fire `storage`, so the store tells its own subscribers.
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** The referrer a visitor arrived with through `/r/{handle}` (leading @ stripped), kept until used or dropped. */
export function getPendingReferrer(): string | null {
  const value = normaliseHandle(browserStorage.get(STORAGE_KEYS.pendingReferrer) ?? '');
  return value || null;
}

export function savePendingReferrer(handle: string): void {
  const bare = normaliseHandle(handle);
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
