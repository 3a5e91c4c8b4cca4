import { errorMessages } from '@manaboard/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPendingReferrer, savePendingReferrer } from '../../lib/pending-referrer';
import { getBrowserId } from '../../lib/browser-id';
import { fail, ok, requestsTo } from '../../test/fake-referral-service';
import { authorizeUrl, earnMoreMana, page, serve, stubAssign } from './main-page.test-support';

afterEach(() => localStorage.clear());

describe('MainPage', () => {
  it("opens What's New from the Updates button and from window.openUpdatesModal", async () => {
    serve();
    const { unmount } = page('/');
    expect(await screen.findByText('Demo: simulated X')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Updates' }));
    expect(await screen.findByRole('dialog', { name: "What's New" })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    await act(() => new Promise((r) => setTimeout(r, 320)));
    expect(screen.queryByRole('dialog')).toBeNull();

    expect(typeof window.openUpdatesModal).toBe('function');
    act(() => window.openUpdatesModal?.());
    expect(await screen.findByRole('dialog', { name: "What's New" })).toBeTruthy();
    unmount();
    expect(window.openUpdatesModal).toBeUndefined();
  });

  it('shows the unlinked card: EARN MORE MANA, triple Mana, 50 Mana per referral', async () => {
    serve();
    page('/');
    await screen.findByRole('button', { name: /Earn more Mana/i });
    const card = screen.getByRole('region', { name: 'Mana card' });
    expect(card.className).toContain('aspect-[1378/2039]');
    expect(card.className).toContain('max-w-[400px]');
    expect(earnMoreMana().textContent).toMatch(/Earn more Mana/i);
    expect(earnMoreMana().textContent).toContain('triple Mana');
    expect(earnMoreMana().textContent).toContain('50 Mana');
  });

  it('advertises the programme rules the engine pays by, not fixed numbers', async () => {
    const programme = {
      version: 2,
      keywords: ['manaboard'],
      hashtags: [],
      officialHandles: [],
      weights: { like: 1, reply: 2, repost: 2, quote: 3 },
      linkedMultiplier: 2,
      dailyLimit: 5,
      refreshWindowDays: 7,
      referralReward: 75,
      interactionRewards: { like: 1, reply: 3, repost: 2 },
      settleAfterHours: 24,
      settleByHours: 72,
    };
    serve({ 'GET /api/programme': new Response(JSON.stringify({ success: true, data: programme })) });
    page('/');
    await waitFor(() => expect(earnMoreMana().textContent).toContain('75 Mana for every friend'));
    expect(earnMoreMana().textContent).toContain('double Mana on your posts');
  });

  it('names the card button by its visible words, read once (label in name)', async () => {
    serve();
    page('/');
    const button = await screen.findByRole('button', { name: /^Earn more Mana/ });
    expect(button.getAttribute('aria-label')).toBeNull();
    expect(button.getAttribute('aria-describedby')).toBeNull();
    expect(button.textContent).toMatch(
      /^Earn more ManaLink your social account to earn triple Mana on your posts, plus \d+ Mana for every friend you refer\.Link your account$/,
    );
  });

  it('starts linking from the card: redirectAfter is this origin + /auth/callback, then off to X', async () => {
    const assign = stubAssign();
    const fetchMock = serve();
    page('/');
    fireEvent.click(await screen.findByRole('button', { name: /Earn more Mana/i }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorizeUrl));
    const [start] = requestsTo(fetchMock, 'POST /auth/twitter/start');
    expect(start?.body).toEqual({ redirectAfter: 'http://localhost:3000/auth/callback' });
    expect(start?.headers.get('X-User-Id')).toBe(getBrowserId());
    expect(start?.headers.get('X-CSRF-Token')).toBe('token-1');
  });

  it.each(['{Enter}', ' '])('starts linking from the keyboard (%s)', async (key) => {
    const assign = stubAssign();
    serve();
    page('/');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: /Earn more Mana/i });
    earnMoreMana().focus();
    await user.keyboard(key);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorizeUrl));
  });

  it('starts linking from the header pill too', async () => {
    const assign = stubAssign();
    serve();
    page('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Link account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorizeUrl));
  });

  it('is ready to link again when the browser comes back to this page from its cache', async () => {
    const assign = stubAssign();
    serve();
    page('/');
    fireEvent.click(await screen.findByRole('button', { name: /Earn more Mana/i }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect((earnMoreMana() as HTMLButtonElement).disabled).toBe(true);
    const restored = new PageTransitionEvent('pageshow', { persisted: true });
    act(() => void window.dispatchEvent(restored));
    await waitFor(() => expect((earnMoreMana() as HTMLButtonElement).disabled).toBe(false));
  });

  it('only logs a failed auth start (console.warn) and stays on the page', async () => {
    const assign = stubAssign();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    serve({ 'POST /auth/twitter/start': fail(500, 'INTERNAL_ERROR', 'boom') });
    page('/');
    fireEvent.click(await screen.findByRole('button', { name: /Earn more Mana/i }));
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('Could not start account linking:', expect.anything()),
    );
    expect(assign).not.toHaveBeenCalled();
    await waitFor(() => expect((earnMoreMana() as HTMLButtonElement).disabled).toBe(false));
  });

  it('once connected: clears the pending referrer, shows the linked card and the handle in the header', async () => {
    getBrowserId();
    savePendingReferrer('someone');
    serve({
      'GET /me/account': ok({ connected: true, handle: 'alice', avatarUrl: null }),
      'POST /referrals/link': ok({ slug: 'alice', url: 'http://localhost:3000/r/@alice' }),
      'GET /referrals/status': ok({ status: 'not_referred', referrerHandle: null }),
    });
    page('/');
    expect(await screen.findByRole('button', { name: 'Unlink' })).toBeTruthy();
    expect(screen.getByRole('banner').textContent).toContain('@alice');
    expect(screen.queryByRole('button', { name: 'Link account' })).toBeNull();
    expect(getPendingReferrer()).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply Referral' })).toBeTruthy();
  });

  it('shows the unlinked card when the account check fails for another reason than 429', async () => {
    getBrowserId();
    serve({ 'GET /me/account': fail(404, 'NOT_FOUND') });
    page('/');
    expect(await screen.findByRole('button', { name: /Earn more Mana/i })).toBeTruthy();
    expect(screen.queryByText(errorMessages.UNKNOWN_ERROR)).toBeNull();
  });
});
