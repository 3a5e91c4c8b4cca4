import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MainPage } from './main-page';
import { savePendingReferrer } from '../../lib/pending-referrer';
import { fail, fakeReferralService, ok, requestsTo, type FakeRoute } from '../../test/fake-referral-service';
import { renderWithProviders } from '../../test/render-with-providers';

const authorizeUrl = 'http://127.0.0.1:2583/oauth/authorize?client_id=x&request_uri=urn%3Aietf';
const blueskyConfig = new Response(
  JSON.stringify({ success: true, data: { socialNetwork: 'bluesky', simulated: false } }),
);

function serve(start: FakeRoute | FakeRoute[] = ok({ authorizeUrl })) {
  return fakeReferralService({
    'GET /api/public/config': blueskyConfig,
    'GET /api/public/announcements': new Response(
      JSON.stringify({ success: true, announcements: [], page: 1, limit: 50, total: 0 }),
    ),
    'POST /auth/bluesky/start': start,
  });
}

function stubAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
  return assign;
}

const page = () =>
  renderWithProviders(
    <Routes>
      <Route path="/" element={<MainPage />} />
    </Routes>,
    '/',
  );

afterEach(() => localStorage.clear());

describe('linking on a Bluesky deployment', () => {
  it('invites members to link their Bluesky account', async () => {
    serve();
    page();
    const button = await screen.findByRole('button', { name: /Link your Bluesky account to earn/ });
    expect(button.textContent).toContain('Link your Bluesky account to earn');
  });

  it('asks for the handle in the card, focuses it, and starts linking with it and the pending referrer', async () => {
    const assign = stubAssign();
    savePendingReferrer('friend.example.com');
    const fetchMock = serve();
    page();
    await userEvent.click(await screen.findByRole('button', { name: /Link your Bluesky account to earn/ }));
    const card = screen.getByRole('region', { name: 'Mana card' });
    const form = within(card).getByRole('form', { name: 'Link your Bluesky account' });
    const input = within(form).getByLabelText('Your Bluesky handle');
    expect(document.activeElement).toBe(input);
    expect(requestsTo(fetchMock, 'POST /auth/bluesky/start')).toHaveLength(0);
    await userEvent.type(input, '@alice.test');
    await userEvent.click(within(form).getByRole('button', { name: 'Link Bluesky account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorizeUrl));
    const [start] = requestsTo(fetchMock, 'POST /auth/bluesky/start');
    expect(start?.body).toEqual({
      redirectAfter: 'http://localhost:3000/auth/callback',
      referrerSlug: 'friend.example.com',
      handle: '@alice.test',
    });
    expect(start?.headers.get('x-csrf-token')).toMatch(/^token-/);
  });

  it("announces the server's reason when the handle is refused, and the member can try again", async () => {
    const assign = stubAssign();
    const refusal = 'No Bluesky account answers to nobody.test. Check the handle and try again.';
    serve([fail(400, 'BAD_REQUEST', refusal), ok({ authorizeUrl })]);
    page();
    await userEvent.click(await screen.findByRole('button', { name: /Link your Bluesky account to earn/ }));
    const input = screen.getByLabelText('Your Bluesky handle');
    await userEvent.type(input, 'nobody.test{Enter}');
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe(refusal));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(alert.id);
    expect(assign).not.toHaveBeenCalled();
    await userEvent.clear(input);
    await userEvent.type(input, 'alice.test{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorizeUrl));
  });

  it('goes back to the card with Back or Escape, and the header button opens the form too', async () => {
    serve();
    page();
    await userEvent.click(await screen.findByRole('button', { name: /Link your Bluesky account to earn/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByLabelText('Your Bluesky handle')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Link account' }));
    const input = await screen.findByLabelText('Your Bluesky handle');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByLabelText('Your Bluesky handle')).toBeNull();
    expect(screen.getByRole('button', { name: /Link your Bluesky account to earn/ })).toBeTruthy();
  });
});
