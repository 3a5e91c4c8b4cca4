import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getBrowserId } from './browser-id';
import { fail, fakeReferralService, networkDown, ok, requestsTo } from '../test/fake-referral-service';
import { providersFor } from '../test/render-with-providers';
import { useAccountRechecks } from './use-account-rechecks';
import { useAccount } from './account';

const alice = { connected: true, handle: 'alice', avatarUrl: 'https://pbs.example/alice.png' };

function renderAccount() {
  const { wrapper } = providersFor();
  return renderHook(
    () => {
      useAccountRechecks();
      return useAccount();
    },
    { wrapper },
  );
}

afterEach(() => localStorage.clear());

describe('useAccount (SPEC §4 account connection)', () => {
  it('is not connected, without a call, while this browser has no id', async () => {
    const fetchMock = fakeReferralService({});
    const { result } = renderAccount();
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current).toMatchObject({ connected: false, handle: null });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is connected when the account has connected and a handle', async () => {
    getBrowserId();
    const fetchMock = fakeReferralService({ 'GET /me/account': ok(alice) });
    const { result } = renderAccount();
    await waitFor(() => expect(result.current.connected).toBe(true));
    expect(result.current).toMatchObject({ handle: 'alice', avatarUrl: alice.avatarUrl });
    expect(requestsTo(fetchMock, 'GET /me/account')[0]?.headers.get('X-User-Id')).toBe(getBrowserId());
  });

  it('is not connected when the answer lacks a handle', async () => {
    getBrowserId();
    fakeReferralService({ 'GET /me/account': ok({ connected: true, handle: null, avatarUrl: null }) });
    const { result } = renderAccount();
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.connected).toBe(false);
  });

  it('re-checks every 30 s; a 429 keeps the previous state, another error resets to not connected', async () => {
    vi.useFakeTimers();
    getBrowserId();
    const fetchMock = fakeReferralService({
      'GET /me/account': [ok(alice), fail(429, 'RATE_LIMIT_EXCEEDED'), fail(404, 'NOT_FOUND')],
    });
    const { result } = renderAccount();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.connected).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(29_990));
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(2);
    expect(result.current).toMatchObject({ connected: true, handle: 'alice' });

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(3);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current).toMatchObject({ connected: false, handle: null });
  });

  it('retries a network failure 3 times (1 s, 2 s) before resetting to not connected', async () => {
    vi.useFakeTimers();
    getBrowserId();
    const fetchMock = fakeReferralService({ 'GET /me/account': [ok(alice), networkDown] });
    const { result } = renderAccount();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.connected).toBe(true);
    act(() => window.dispatchEvent(new Event('focus')));
    await act(() => vi.advanceTimersByTimeAsync(2_999));
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(3);
    expect(result.current.connected).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(4);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.connected).toBe(false);
  });

  it('re-checks on window focus and on storage events (another tab linked)', async () => {
    const fetchMock = fakeReferralService({ 'GET /me/account': ok(alice) });
    const { result } = renderAccount();
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.connected).toBe(false);

    // Another tab created the id and linked: this tab hears it through the storage event.
    getBrowserId();
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: 'manaboard.userId' })));
    await waitFor(() => expect(result.current.connected).toBe(true));
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(1);

    act(() => window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(2));
  });
});
