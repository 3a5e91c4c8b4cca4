import { useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import * as z from 'zod/mini';
import { adminRequest } from '../../lib/admin-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers';
import { adminSessionAnswer, fakeReferralService, json, requestsTo } from '../../test/fake-referral-service';
import { Route, Routes } from 'react-router';
import { AdminApp } from './admin-app';
import type { AdminSectionEntry } from './admin-shell';

/** As the app mounts it: under `/admin/*`. */
const mounted = (sections: AdminSectionEntry[]) => (
  <Routes>
    <Route path="/admin/*" element={<AdminApp sections={sections} />} />
  </Routes>
);

const session = adminSessionAnswer();
const signedOut = json({ success: false, error: 'Sign in to the console to continue.' }, 401);
const ended = json({ success: false, error: 'Your console session has ended. Sign in again.' }, 401);

/** A section that asks the server for something, as every real section does. */
function Probe() {
  const probe = useQuery({
    queryKey: ['admin', 'probe'],
    queryFn: () => adminRequest('/api/admin/probe', { schema: z.object({ success: z.literal(true) }) }),
  });
  return <p>probe section {probe.isSuccess ? 'loaded' : ''}</p>;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the operator console', () => {
  it('shows the sign-in screen with the reason a sign-in was refused', async () => {
    fakeReferralService({ 'GET /api/admin/session': signedOut });
    renderWithProviders(mounted([]), '/admin?error=not_admin');
    expect(await screen.findByRole('heading', { name: 'Operator console' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/not an admin of this programme/);
    expect(await screen.findByRole('button', { name: 'Sign in with X' })).toBeTruthy();
  });

  it('lists the sections and never sends the member browser id', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/probe': json({ success: true }),
    });
    renderWithProviders(mounted([{ path: 'probe', label: 'Probe', Component: Probe }]), '/admin');
    expect(await screen.findByText('probe section loaded')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Console sections' });
    expect(nav.textContent).toBe('Probe');
    const [call] = requestsTo(fetchMock, 'GET /api/admin/session');
    expect(call?.headers.has('x-user-id')).toBe(false);
  });

  it('goes back to sign-in, saying why, when the session ends while the console is open', async () => {
    fakeReferralService({
      'GET /api/admin/session': [session, ended],
      'GET /api/admin/probe': ended,
    });
    renderWithProviders(mounted([{ path: 'probe', label: 'Probe', Component: Probe }]), '/admin/probe');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Operator console' })).toBeTruthy());
    expect(screen.getByRole('status').textContent).toBe('Your console session has ended. Sign in again.');
  });
});
