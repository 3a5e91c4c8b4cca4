/**
 * localStorage that never throws: private modes and storage quotas make it fail, and a failure there must not
 * break the page (the value is then simply not remembered).
 */
export const browserStorage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Not remembered; the next read behaves as if it was never set.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing to clear.
    }
  },
};
