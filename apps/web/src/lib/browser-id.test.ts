import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../config/constants';
import { clearBrowserId, getBrowserId, storedBrowserId } from './browser-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => localStorage.clear());

describe('the per-browser id (SPEC §3)', () => {
  it('is a random UUID created on first use and kept in storage', () => {
    expect(storedBrowserId()).toBeNull();
    const id = getBrowserId();
    expect(id).toMatch(UUID);
    expect(localStorage.getItem(STORAGE_KEYS.browserId)).toBe(id);
    expect(getBrowserId()).toBe(id);
    expect(storedBrowserId()).toBe(id);
  });

  it('replaces a stored value that is not a UUID', () => {
    localStorage.setItem(STORAGE_KEYS.browserId, 'not-a-uuid');
    expect(storedBrowserId()).toBeNull();
    expect(getBrowserId()).toMatch(UUID);
  });

  it('is forgotten on clear, so the next call is a new browser', () => {
    const first = getBrowserId();
    clearBrowserId();
    expect(storedBrowserId()).toBeNull();
    expect(getBrowserId()).not.toBe(first);
  });

  it('still makes a v4 UUID where crypto.randomUUID is missing (plain-http deployments)', () => {
    // An own property shadows the prototype's method for this test only.
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(getBrowserId()).toMatch(UUID);
    } finally {
      Reflect.deleteProperty(crypto, 'randomUUID');
    }
    expect(typeof crypto.randomUUID).toBe('function');
  });

  it('works without storage (private mode): a fresh id each time, no crash', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('denied');
    });
    expect(getBrowserId()).toMatch(UUID);
  });
});
