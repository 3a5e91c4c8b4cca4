import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../config/constants';
import {
  clearPendingReferrer,
  getPendingReferrer,
  savePendingReferrer,
  usePendingReferrer,
} from './pending-referrer';

afterEach(() => localStorage.clear());

describe('the pending referrer', () => {
  it('is saved without a leading @ and cleared', () => {
    savePendingReferrer('  @someone ');
    expect(getPendingReferrer()).toBe('someone');
    expect(localStorage.getItem(STORAGE_KEYS.pendingReferrer)).toBe('someone');
    clearPendingReferrer();
    expect(getPendingReferrer()).toBeNull();
  });

  it('ignores a blank handle', () => {
    savePendingReferrer('@');
    expect(getPendingReferrer()).toBeNull();
  });

  it.each([
    ['spaces inside', 'not a handle'],
    ['markup', '<script>'],
    ['16 characters', 'sixteen_chars_xx'],
    ['a look-alike @', '＠someone'],
    ['Cyrillic letters', 'аlice'],
    ['a path', 'someone/else'],
  ])('ignores a referrer X could not have issued (%s)', (_case, handle) => {
    savePendingReferrer(handle);
    expect(getPendingReferrer()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.pendingReferrer)).toBeNull();
  });

  it('does not offer junk already in storage as a referrer', () => {
    localStorage.setItem(STORAGE_KEYS.pendingReferrer, 'bad handle!');
    expect(getPendingReferrer()).toBeNull();
  });

  it('is React state that follows this tab and storage events from other tabs', () => {
    const { result } = renderHook(() => usePendingReferrer());
    expect(result.current).toBeNull();
    act(() => savePendingReferrer('alice'));
    expect(result.current).toBe('alice');
    act(() => {
      localStorage.setItem(STORAGE_KEYS.pendingReferrer, 'bob');
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.pendingReferrer }));
    });
    expect(result.current).toBe('bob');
    act(() => clearPendingReferrer());
    expect(result.current).toBeNull();
  });
});
