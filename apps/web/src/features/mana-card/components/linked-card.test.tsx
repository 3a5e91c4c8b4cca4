import { errorMessages } from '@manaboard/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storedBrowserId } from '../../../lib/browser-id';
import { fail, ok, requestsTo } from '../../../test/fake-referral-service';
import { noBreakdown } from '../../../test/no-breakdown';
import { renderWithProviders } from '../../../test/render-with-providers';
import { useAccount } from '../../../lib/account';
import { getPendingReferrer, savePendingReferrer } from '../../../lib/pending-referrer';
import { LinkedCard } from './linked-card';

import {
  registerCardTestLifecycle,
  card,
  link,
  notReferred,
  serve,
  settle,
} from './linked-card.test-support';

/** The card as the main page shows it: for whichever account this browser is linked to now. */
function AccountCard() {
  const account = useAccount();
  return account.handle ? (
    <LinkedCard handle={account.handle} avatarUrl={null} breakdown={noBreakdown} />
  ) : null;
}

const applyButton = () => screen.getByRole('button', { name: /Apply Referral|Applying|Referred by/ });

registerCardTestLifecycle();

describe('LinkedCard (SPEC §2 mana card, linked)', () => {
  it("shows the handle's first letter on a purple circle when there is no avatar, and the avatar otherwise", async () => {
    serve();
    const first = card();
    await settle();
    expect(screen.getByText('@alice')).toBeTruthy();
    expect(screen.getByTestId('avatar-letter').textContent).toBe('A');
    expect(screen.getByTestId('avatar-letter').className).toContain('bg-violet-700');
    first.unmount();
    const second = card('https://pbs.example/alice.png');
    await settle();
    expect(second.container.querySelector('img[src="https://pbs.example/alice.png"]')).toBeTruthy();
    expect(screen.queryByTestId('avatar-letter')).toBeNull();
  });

  it('asks for the referral link with POST {} and copies it, showing "Copied" for 2 s', async () => {
    const fetchMock = serve();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    card();
    await settle();
    expect(requestsTo(fetchMock, 'POST /referrals/link')[0]?.body).toEqual({});
    fireEvent.click(screen.getByRole('button', { name: /r\/@alice/ }));
    await settle(0);
    expect(writeText).toHaveBeenCalledWith('http://localhost:3000/r/@alice');
    expect(screen.getByText('Copied')).toBeTruthy();
    await settle(1989);
    expect(screen.getByText('Copied')).toBeTruthy();
    await settle(20);
    expect(screen.queryByText('Copied')).toBeNull();
    expect(screen.getByText('Copy')).toBeTruthy();
  });

  it('asks again for the link and status after a relink to another account, never mixing the two', async () => {
    const fetchMock = serve({
      'GET /me/account': [
        ok({ connected: true, handle: 'alice', avatarUrl: null }),
        ok({ connected: true, handle: 'carol', avatarUrl: null }),
      ],
      'POST /referrals/link': [link, ok({ slug: 'carol', url: 'http://localhost:3000/r/@carol' })],
      'GET /referrals/status': [ok({ status: 'already_referred', referrerHandle: 'bob' }), notReferred],
    });
    renderWithProviders(<AccountCard />);
    await settle();
    expect(screen.getByText('@alice')).toBeTruthy();
    expect(screen.getByRole('button', { name: /r\/@alice/ })).toBeTruthy();
    expect(applyButton().textContent).toBe('Referred by bob');

    // Another tab links this browser to carol; the 30 s re-check (or focus, or a storage event) sees it.
    await settle(30_000);
    await settle();
    expect(screen.getByText('@carol')).toBeTruthy();
    expect(screen.getByRole('button', { name: /r\/@carol/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /r\/@alice/ })).toBeNull();
    expect(applyButton().textContent).toBe('Apply Referral');
    expect(requestsTo(fetchMock, 'POST /referrals/link')).toHaveLength(2);
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(2);
  });

  it('says "Failed to copy to clipboard" when copying fails', async () => {
    serve();
    const writeText = vi.fn(async () => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    card();
    await settle();
    fireEvent.click(screen.getByRole('button', { name: /r\/@alice/ }));
    await settle(0);
    expect(screen.getByText(errorMessages.CLIPBOARD_FAILED)).toBeTruthy();
    await settle(5000);
    expect(screen.queryByText(errorMessages.CLIPBOARD_FAILED)).toBeNull();
  });

  it('only logs a failed link generation (console.warn), leaving the panel empty', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    serve({ 'POST /referrals/link': fail(500, 'INTERNAL_ERROR', 'boom') });
    card();
    await settle();
    expect(warn).toHaveBeenCalledWith('Could not generate the referral link:', expect.anything());
    expect(screen.getByText('Your link is not available right now.')).toBeTruthy();
  });

  it('reads "Referred by {handle}", disabled, once referred', async () => {
    serve({ 'GET /referrals/status': ok({ status: 'already_referred', referrerHandle: 'carol' }) });
    card();
    await settle();
    expect(applyButton().textContent).toBe('Referred by carol');
    expect((applyButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a referral-status error with Retry, which asks again', async () => {
    const fetchMock = serve({ 'GET /referrals/status': [fail(404, 'NOT_FOUND', 'gone'), notReferred] });
    card();
    await settle();
    expect(screen.getByText(errorMessages.UNKNOWN_ERROR)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await settle();
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('unlinks: the server call, then the browser id and pending referrer are cleared and the page reloads', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    savePendingReferrer('someone');
    const fetchMock = serve({ 'POST /me/unlink': ok({ unlinked: true }) });
    card();
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    await settle();
    expect(requestsTo(fetchMock, 'POST /me/unlink')[0]?.body).toEqual({});
    expect(storedBrowserId()).toBeNull();
    expect(getPendingReferrer()).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('cancels the referral link still being asked for before it unlinks, so no answer lands after the unlink', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const order: string[] = [];
    const fetchMock = serve({
      // The member's link is slow to come: it answers only when aborted (as a fetch does).
      'POST /referrals/link': ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            order.push('link aborted');
            reject(new DOMException('The operation was aborted.', 'AbortError'));
          });
        }),
      'POST /me/unlink': () => {
        order.push('unlink');
        return ok({ unlinked: true });
      },
    });
    card();
    await settle();
    expect(requestsTo(fetchMock, 'POST /referrals/link')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    await settle();
    expect(order).toEqual(['link aborted', 'unlink']);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('keeps the member linked and says why when unlinking fails', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    serve({ 'POST /me/unlink': fail(429, 'RATE_LIMIT_EXCEEDED') });
    card();
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    await settle();
    expect(screen.getByText(errorMessages.RATE_LIMIT)).toBeTruthy();
    expect(storedBrowserId()).not.toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });
});
