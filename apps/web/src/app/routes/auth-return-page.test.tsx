import { act, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getBrowserId } from '../../lib/browser-id';
import { fail, fakeReferralService, networkDown, ok, requestsTo } from '../../test/fake-referral-service';
import { renderWithProviders } from '../../test/render-with-providers';
import { AuthReturnPage } from './auth-return-page';

const notYet = ok({ connected: false, handle: null, avatarUrl: null });
const linked = ok({ connected: true, handle: 'alice', avatarUrl: null });

function Home() {
  const location = useLocation();
  return <p>home page{location.search}</p>;
}

const routes = (path: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/auth/callback" element={<AuthReturnPage />} />
      <Route path="/linked" element={<AuthReturnPage />} />
    </Routes>,
    path,
  );

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const home = () => screen.queryByText(/^home page/)?.textContent ?? null;

afterEach(() => localStorage.clear());

describe('AuthReturnPage (SPEC §2)', () => {
  it('is a full-screen black overlay with the image fading in over 1 s', () => {
    vi.useFakeTimers();
    getBrowserId();
    fakeReferralService({ 'GET /me/account': notYet });
    routes('/auth/callback');
    const overlay = screen.getByRole('status');
    expect(overlay.className).toContain('fixed inset-0');
    expect(overlay.className).toContain('bg-black');
    expect(overlay.querySelector('img')?.className).toContain('animate-fade-in-1s');
  });

  it('1. logs an OAuth error (console.warn) and goes home at once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    routes('/auth/callback?error=access_denied');
    expect(home()).toBe('home page');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('access_denied'));
  });

  it('1. treats rate_limited like any error: console.warn (never console.error), home at once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error');
    const fetchMock = fakeReferralService({});
    routes('/auth/callback?error=rate_limited');
    expect(home()).toBe('home page');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('rate_limited'));
    expect(error).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('2. referral_applied=true with referrer_handle: home after 1.5 s, carrying both for the banner', async () => {
    vi.useFakeTimers();
    const fetchMock = fakeReferralService({});
    routes('/linked?referral_applied=true&referrer_handle=someone');
    await wait(1499);
    expect(home()).toBeNull();
    await wait(1);
    expect(home()).toBe('home page?referral_applied=true&referrer_handle=someone');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('3. polls until connected, reads the referral status, waits 1.5 s and goes to / without a query string', async () => {
    vi.useFakeTimers();
    getBrowserId();
    const fetchMock = fakeReferralService({
      'GET /me/account': [notYet, notYet, linked],
      'GET /referrals/status': ok({ status: 'not_referred', referrerHandle: null }),
    });
    routes('/auth/callback?state=abc');
    await wait(0);
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(1);
    await wait(500);
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(2);
    await wait(500);
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(3);
    await wait(10);
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(1);
    await wait(1480);
    expect(home()).toBeNull();
    await wait(20);
    expect(home()).toBe('home page');
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(3);
  });

  it('3. linked but the referrer refused: carries referral_error (alone) home once connected', async () => {
    vi.useFakeTimers();
    getBrowserId();
    fakeReferralService({
      'GET /me/account': linked,
      'GET /referrals/status': ok({ status: 'not_referred', referrerHandle: null }),
    });
    routes('/auth/callback?referral_error=REQUIRES_VERIFICATION&state=abc');
    await wait(1490);
    expect(home()).toBeNull();
    await wait(20);
    expect(home()).toBe('home page?referral_error=REQUIRES_VERIFICATION');
  });

  it('4. carries referral_error home when the connection is not confirmed either', async () => {
    vi.useFakeTimers();
    getBrowserId();
    fakeReferralService({ 'GET /me/account': fail(500, 'INTERNAL_ERROR') });
    routes('/linked?referral_error=INVALID_REFERRER');
    await wait(10);
    expect(home()).toBe('home page?referral_error=INVALID_REFERRER');
  });

  it('3. retries a network error during polling after 2 s', async () => {
    vi.useFakeTimers();
    getBrowserId();
    const fetchMock = fakeReferralService({
      'GET /me/account': [networkDown, linked],
      'GET /referrals/status': ok({ status: 'not_referred', referrerHandle: null }),
    });
    routes('/auth/callback');
    await wait(1990);
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(1);
    await wait(20);
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(2);
    await wait(1600);
    expect(home()).toBe('home page');
  });

  it('4. goes home when 30 checks never confirm the connection', async () => {
    vi.useFakeTimers();
    getBrowserId();
    const fetchMock = fakeReferralService({ 'GET /me/account': notYet });
    routes('/auth/callback');
    await wait(32_000);
    expect(home()).toBeNull();
    await wait(2000);
    expect(home()).toBe('home page');
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(30);
  });

  it('4. goes home at once on a non-network failure', async () => {
    vi.useFakeTimers();
    getBrowserId();
    const fetchMock = fakeReferralService({ 'GET /me/account': fail(500, 'INTERNAL_ERROR') });
    routes('/auth/callback');
    await wait(10);
    expect(home()).toBe('home page');
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(1);
  });

  it('goes home at once when this browser never started linking (no browser id)', () => {
    const fetchMock = fakeReferralService({});
    routes('/linked');
    expect(home()).toBe('home page');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
