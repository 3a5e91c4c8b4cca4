import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { FairnessFlag } from '@manaboard/contract/admin';
import { AdminApp } from '../../../components/admin/admin-app';
import {
  adminSessionAnswer,
  fakeReferralService,
  json,
  requestsTo,
} from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { FairnessSection } from './fairness-section';

const session = adminSessionAnswer();

const ring: FairnessFlag = {
  subjectId: '101',
  handle: 'ringleader',
  kind: 'ring',
  score: 0.85,
  reason: '85% of the engagement @ringleader received (34 of 40) came from a group of 3 accounts',
  evidence: {
    share: 0.85,
    received: 40,
    fromCluster: 34,
    density: 1,
    reciprocity: 1,
    cluster: [
      { id: '101', handle: 'ringleader' },
      { id: '102', handle: 'ringtwo' },
      { id: '103', handle: 'ringthree' },
    ],
    topEngagers: [
      { id: '102', handle: 'ringtwo', count: 20, inCluster: true },
      { id: '555', handle: 'outsider', count: 3, inCluster: false },
    ],
    windowDays: 28,
  },
  firstFlaggedAt: '2026-11-20T10:00:00.000Z',
  computedAt: '2026-11-22T10:41:00.000Z',
  review: null,
};
const spike: FairnessFlag = {
  ...ring,
  subjectId: '201',
  handle: 'spiky',
  kind: 'spike',
  score: 0.4,
  reason: "On 2026-11-21 @spiky's posts received 120 engagements, 12× their median day (10)",
  evidence: { day: '2026-11-21', engagement: 120, median: 10, ratio: 12, robustZ: 30, historyDays: 9 },
  review: { at: '2026-11-22T11:00:00.000Z', by: 'admin:@ManaboardHQ (42)', note: 'Dismissed: a viral post.' },
};
const chain: FairnessFlag = {
  ...ring,
  subjectId: '301',
  handle: 'recruiter',
  kind: 'referral_chain',
  score: 0.75,
  reason: '3 of the 4 accounts referred through @recruiter were under 30 days old when they linked',
  evidence: {
    depth: 2,
    width: 2,
    size: 4,
    fresh: 3,
    freshShare: 0.75,
    freshDays: 30,
    members: [
      { id: '302', handle: 'newbie', referrerId: '301', depth: 1, ageDaysAtLink: 2, fresh: true },
      { id: '303', handle: 'oldtimer', referrerId: '302', depth: 2, ageDaysAtLink: null, fresh: false },
    ],
  },
};
const flagsOf = (flags: FairnessFlag[]) =>
  json({ success: true, data: { flags, total: flags.length, computedAt: '2026-11-22T10:41:00.000Z' } });

const mounted = (
  <Routes>
    <Route
      path="/admin/*"
      element={
        <AdminApp sections={[{ path: 'fairness', label: 'Fairness signals', Component: FairnessSection }]} />
      }
    />
  </Routes>
);

describe('the fairness signals section', () => {
  it('lists each flag with why, its evidence and its review, and says flags are advice', async () => {
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': flagsOf([ring, spike, chain]),
    });
    renderWithProviders(mounted, '/admin/fairness');
    const list = await screen.findByRole('list', { name: 'Flags, strongest first' });
    expect(screen.getByText(/never an automatic penalty/)).toBeTruthy();
    const cards = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(cards).toHaveLength(3);
    const [ringCard, spikeCard, chainCard] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(ringCard.textContent).toContain('came from a group of 3 accounts');
    expect(ringCard.textContent).toContain('85% (34 of 40)');
    const members = within(ringCard).getByRole('list', { name: 'Ring members' });
    expect(members.textContent).toBe('@ringleader@ringtwo@ringthree');
    expect(within(ringCard).getByRole('list', { name: 'Top engagers' }).textContent).toContain(
      '@outsider: 3 (outside the ring)',
    );
    expect(ringCard.textContent).toContain('Not reviewed');
    expect(spikeCard.textContent).toContain('12×');
    expect(spikeCard.textContent).toContain('Dismissed: a viral post.');
    expect(spikeCard.textContent).toContain('Reviewed');
    expect(within(chainCard).getByRole('list', { name: 'Accounts in the chain' }).textContent).toContain(
      '@newbie (level 1, 2 days old at linking, fresh)',
    );
    expect(chainCard.textContent).toContain('age unknown');
  });

  it('filters by kind through the query', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': ({ url }) =>
        flagsOf(url.searchParams.get('kind') === 'spike' ? [spike] : [ring, spike]),
    });
    renderWithProviders(mounted, '/admin/fairness');
    await screen.findByText(/came from a group of 3 accounts/);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'spike' } });
    await screen.findByText(/120 engagements/);
    expect(screen.queryByText(/came from a group of 3 accounts/)).toBeNull();
    const kinds = fetchMock.mock.calls
      .map(([input]) => new URL(input, 'http://localhost'))
      .filter((url) => url.pathname === '/api/admin/fairness/flags')
      .map((url) => url.searchParams.get('kind'));
    expect(kinds).toEqual([null, 'spike']);
  });

  it("sends a review as the contract's body with the session's CSRF token, and refuses an empty one", async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': [
        flagsOf([ring]),
        flagsOf([
          {
            ...ring,
            review: {
              at: '2026-11-22T12:00:00.000Z',
              by: 'admin:@ManaboardHQ (42)',
              note: 'Confirmed: a ring.',
            },
          },
        ]),
      ],
      'POST /api/admin/fairness/review': json({ success: true }),
    });
    renderWithProviders(mounted, '/admin/fairness');
    const form = await screen.findByRole('form', { name: 'Review the ring flag on @ringleader' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save review' }));
    expect(within(form).getByRole('alert').textContent).toMatch(/Say what you concluded/);
    expect(requestsTo(fetchMock, 'POST /api/admin/fairness/review')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText('Your review'), {
      target: { value: '  Confirmed: a ring. ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save review' }));
    await screen.findByText('Confirmed: a ring.', { selector: 'p' });
    const [call] = requestsTo(fetchMock, 'POST /api/admin/fairness/review');
    expect(call?.body).toEqual({ subjectId: '101', kind: 'ring', note: 'Confirmed: a ring.' });
    expect(call?.headers.get('x-csrf-token')).toBe('admin-token');
  });

  it('shows a refused review as an alert', async () => {
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': flagsOf([ring]),
      'POST /api/admin/fairness/review': json(
        { success: false, error: 'No such flag (the detector may have withdrawn it)' },
        404,
      ),
    });
    renderWithProviders(mounted, '/admin/fairness');
    const form = await screen.findByRole('form', { name: 'Review the ring flag on @ringleader' });
    fireEvent.change(within(form).getByLabelText('Your review'), { target: { value: 'Dismissed.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save review' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toMatch(/withdrawn/));
  });

  it('recomputes on demand, says what it found and refreshes the list', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': [flagsOf([]), flagsOf([ring])],
      'POST /api/admin/fairness/recompute': json({
        success: true,
        data: { flags: { ring: 1, referral_chain: 0, spike: 0 }, authors: 96, ms: 41 },
      }),
    });
    renderWithProviders(mounted, '/admin/fairness');
    await screen.findByText(/No flags stand/);
    fireEvent.click(screen.getByRole('button', { name: 'Recompute now' }));
    await screen.findByText(
      'Recomputed in 41 ms over 96 authors: 1 ring member, 0 referral chains, 0 spikes.',
    );
    await screen.findByText(/came from a group of 3 accounts/);
    const [call] = requestsTo(fetchMock, 'POST /api/admin/fairness/recompute');
    expect(call?.headers.get('x-csrf-token')).toBe('admin-token');
  });

  it("shows one member's flags from a flag's button", async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': flagsOf([ring]),
      'GET /api/admin/fairness/members/101': json({
        success: true,
        data: { subjectId: '101', flags: [ring, { ...spike, subjectId: '101', handle: 'ringleader' }] },
      }),
    });
    renderWithProviders(mounted, '/admin/fairness');
    fireEvent.click(await screen.findByRole('button', { name: 'All flags of @ringleader' }));
    const memberList = await screen.findByRole('list', { name: 'Flags of 101' });
    expect(within(memberList).getByText(/120 engagements/)).toBeTruthy();
    expect(screen.getByLabelText('Network user id')).toHaveProperty('value', '101');
    expect(requestsTo(fetchMock, 'GET /api/admin/fairness/members/101')).toHaveLength(1);
  });

  it('shows a failed list as an alert with Retry', async () => {
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/fairness/flags': [
        json({ success: false, error: 'The database is unavailable' }, 503),
        json({ success: false, error: 'The database is unavailable' }, 503),
        flagsOf([ring]),
      ],
    });
    renderWithProviders(mounted, '/admin/fairness');
    // The console retries a failed read once (after a second) before showing the error.
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain('The database is unavailable');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText(/came from a group of 3 accounts/);
  });
});
