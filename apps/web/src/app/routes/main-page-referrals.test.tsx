import { errorMessages } from '@manaboard/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPendingReferrer, savePendingReferrer } from '../../lib/pending-referrer';
import { requestsTo } from '../../test/fake-referral-service';
import { earnMoreMana, page, serve, stubAssign } from './main-page.test-support';

afterEach(() => localStorage.clear());

describe('MainPage: arriving from a referral link (SPEC §4)', () => {
  it('remembers /r/@someone as the pending referrer and sends it as referrerSlug', async () => {
    const assign = stubAssign();
    const fetchMock = serve();
    page('/r/@someone');
    expect(await screen.findByRole('button', { name: /Referred by someone/ })).toBeTruthy();
    expect(getPendingReferrer()).toBe('someone');
    fireEvent.click(earnMoreMana());
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(requestsTo(fetchMock, 'POST /auth/twitter/start')[0]?.body).toEqual({
      redirectAfter: 'http://localhost:3000/auth/callback',
      referrerSlug: 'someone',
    });
  });

  it.each(['not a handle', '<b>junk</b>', 'sixteen_chars_xx'])(
    'ignores /r/%s: no pending referrer, no "Referred by"',
    async (junk) => {
      serve();
      page(`/r/${encodeURIComponent(junk)}`);
      await screen.findByRole('button', { name: /Earn more Mana/i });
      expect(getPendingReferrer()).toBeNull();
      expect(screen.queryByRole('button', { name: /Referred by/ })).toBeNull();
    },
  );

  it('"Referred by {handle}" cancels the referral and returns to /', async () => {
    serve();
    page('/r/someone');
    fireEvent.click(await screen.findByRole('button', { name: /Referred by someone/ }));
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(getPendingReferrer()).toBeNull();
    expect(screen.queryByRole('button', { name: /Referred by/ })).toBeNull();
  });

  it('on referral_applied=true clears the pending referrer, cleans the URL and shows the banner for 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve();
    savePendingReferrer('someone');
    page('/?referral_applied=true&referrer_handle=someone');
    expect((await screen.findByText(/Referral applied!/)).textContent).toBe(
      'Referral applied! You were referred by @someone.',
    );
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(getPendingReferrer()).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(screen.queryByText(/Referral applied!/)).toBeNull();
  });

  it('on referral_error shows the catalogue message for 5 s, cleans the URL and drops the pending referrer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve();
    savePendingReferrer('someone');
    page('/?referral_error=REQUIRES_VERIFICATION');
    const notice = await screen.findByText(/referral was not applied/);
    expect(notice.textContent).toContain(errorMessages.REQUIRES_VERIFICATION);
    // One live region: the notice sits in it and is not a region of its own.
    expect(notice.getAttribute('role')).toBeNull();
    expect(notice.parentElement?.getAttribute('aria-live')).toBe('polite');
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(getPendingReferrer()).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(screen.queryByText(/referral was not applied/)).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByText(/referral was not applied/)).toBeNull();
  });

  it('shows the UNKNOWN_ERROR text for a referral_error outside the catalogue', async () => {
    serve();
    page('/?referral_error=SOMETHING_NEW');
    const notice = await screen.findByText(/referral was not applied/);
    expect(notice.textContent).toContain(errorMessages.UNKNOWN_ERROR);
    expect(screen.getByTestId('location').textContent).toBe('/');
  });
});
