import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { WorkerStatus } from '@manaboard/contract/admin';
import { AdminApp } from '../../../components/admin/admin-app';
import {
  adminSessionAnswer,
  fakeReferralService,
  json,
  requestsTo,
} from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { WorkerSection } from './worker-section';

const session = adminSessionAnswer();

const status: WorkerStatus = {
  paused: false,
  pausedBy: null,
  pausedAt: null,
  jobs: [
    {
      job: 'search',
      schedule: '*/1 * * * *',
      lastRunAt: '2026-11-22T10:00:00.000Z',
      lastSuccessAt: '2026-11-22T10:00:00.000Z',
      nextRunAt: '2026-11-22T10:15:00.000Z',
      lastDurationMs: 12_400,
      lastError: null,
      lastErrorAt: null,
      items: { posts: 37, authors: 12 },
      callsSpent: 4,
      rateLimitResetAt: null,
    },
    {
      job: 'refresh',
      schedule: '*/15 * * * *',
      lastRunAt: '2026-11-22T09:00:00.000Z',
      lastSuccessAt: null,
      nextRunAt: null,
      lastDurationMs: 850,
      lastError: 'Too Many Requests',
      lastErrorAt: '2026-11-22T09:00:01.000Z',
      items: {},
      callsSpent: 1,
      rateLimitResetAt: '2026-11-22T09:15:00.000Z',
    },
    ...['interactions', 'settle', 'totals', 'fairness'].map((job) => ({
      job,
      schedule: job === 'totals' ? '20 * * * * *' : '7 * * * *',
      lastRunAt: null,
      lastSuccessAt: null,
      nextRunAt: '2026-11-22T10:07:00.000Z',
      lastDurationMs: null,
      lastError: null,
      lastErrorAt: null,
      items: {},
      callsSpent: 0,
      rateLimitResetAt: null,
    })),
  ],
  usage: {
    kind: 'calls',
    network: 'x',
    endpoints: [
      {
        endpoint: 'GET /2/tweets/search/recent',
        today: { calls: 9, reads: 310, failures: 1 },
        month: { calls: 120, reads: 4200, failures: 3 },
      },
    ],
    monthReads: 4200,
    monthlyReadCap: 10_000,
    pricePerReadUsd: 0.005,
    monthCostUsd: 21,
    todayCostUsd: 1.55,
  },
  runRequests: [
    {
      id: '7',
      job: 'totals',
      requestedBy: 'admin:@ManaboardHQ (42)',
      requestedAt: '2026-11-22T09:58:00.000Z',
      startedAt: '2026-11-22T09:58:02.000Z',
      finishedAt: '2026-11-22T09:58:03.000Z',
      error: null,
    },
  ],
};
const answer = (s: WorkerStatus) => json({ success: true, data: s });

const mounted = (
  <Routes>
    <Route
      path="/admin/*"
      element={
        <AdminApp sections={[{ path: 'worker', label: 'Worker and network', Component: WorkerSection }]} />
      }
    />
  </Routes>
);

// jsdom has no layout: the phone cards and the desktop table are both in the document. Read the table.
const jobsTable = () => screen.getByRole('table', { name: /^Jobs:/ });

describe('the worker and network section', () => {
  it("shows each job's runs, items, rate limit and error, and the calls against the cap with their cost", async () => {
    fakeReferralService({ 'GET /api/admin/session': session, 'GET /api/admin/worker': answer(status) });
    renderWithProviders(mounted, '/admin/worker');
    await screen.findByRole('heading', { name: 'Jobs' });
    const [search, refresh] = within(jobsTable()).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(search.textContent).toContain('12.4 s');
    expect(search.textContent).toContain('posts 37, authors 12');
    expect(search.textContent).toContain('not limited');
    expect(refresh.textContent).toContain('Too Many Requests');
    expect(refresh.textContent).toMatch(/until 22 Nov 2026, 09:15:00 UTC/);
    expect(screen.getByText('4,200 of 10,000')).toBeTruthy();
    expect(screen.getByText('42% of the monthly read cap used')).toBeTruthy();
    expect(screen.getByText('$21.00')).toBeTruthy();
    const endpoints = screen.getByRole('table', { name: 'Calls per endpoint today and this month' });
    expect(within(endpoints).getByRole('row', { name: /search\/recent/ }).textContent).toContain(
      '120 / 4,200 / 3',
    );
    expect(screen.getByRole('list', { name: 'Recent run-now requests' }).textContent).toMatch(/totals.*done/);
    expect(screen.getByText(/Running: jobs run on their schedule/)).toBeTruthy();
  });

  it('asks the worker to run a job now with {job} and the CSRF token, then asks for the state again', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/worker': answer(status),
      'POST /api/admin/worker/run': json({
        success: true,
        data: { ...status.runRequests[0], id: '8', job: 'search', startedAt: null, finishedAt: null },
      }),
    });
    renderWithProviders(mounted, '/admin/worker');
    await screen.findByRole('heading', { name: 'Jobs' });
    const before = requestsTo(fetchMock, 'GET /api/admin/worker').length;
    fireEvent.click(within(jobsTable()).getByRole('button', { name: 'Run now search' }));
    await screen.findByText(/Asked the worker to run search now/);
    const [call] = requestsTo(fetchMock, 'POST /api/admin/worker/run');
    expect(call?.body).toEqual({ job: 'search' });
    expect(call?.headers.get('x-csrf-token')).toBe('admin-token');
    await waitFor(() =>
      expect(requestsTo(fetchMock, 'GET /api/admin/worker').length).toBeGreaterThan(before),
    );
  });

  it('pauses only after the confirm dialog, sending {paused: true}, and then offers resume', async () => {
    const paused = {
      ...status,
      paused: true,
      pausedBy: 'admin:@ManaboardHQ (42)',
      pausedAt: '2026-11-22T10:05:00.000Z',
    };
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/worker': [answer(status), answer(paused)],
      'POST /api/admin/worker/pause': json({ success: true, data: { paused: true } }),
    });
    renderWithProviders(mounted, '/admin/worker');
    fireEvent.click(await screen.findByRole('button', { name: 'Pause the worker' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pause the worker?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo(fetchMock, 'POST /api/admin/worker/pause')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Pause the worker' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Pause the worker?' })).getByRole('button', {
        name: 'Pause',
      }),
    );
    await screen.findByText('The worker is paused.');
    const [call] = requestsTo(fetchMock, 'POST /api/admin/worker/pause');
    expect(call?.body).toEqual({ paused: true });
    expect(call?.headers.get('x-csrf-token')).toBe('admin-token');
    expect(await screen.findByRole('button', { name: 'Resume the worker' })).toBeTruthy();
    expect(screen.getByText(/Paused by admin:@ManaboardHQ \(42\)/)).toBeTruthy();
  });

  it('refreshes itself while open', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/worker': answer(status),
    });
    renderWithProviders(mounted, '/admin/worker');
    await screen.findByRole('heading', { name: 'Jobs' });
    await waitFor(
      () => expect(requestsTo(fetchMock, 'GET /api/admin/worker').length).toBeGreaterThanOrEqual(2),
      {
        timeout: 7000,
      },
    );
  }, 10_000);

  it('says why an action was refused', async () => {
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/worker': answer(status),
      'POST /api/admin/worker/run': json({ success: false, error: 'Too many requests, slow down' }, 429),
    });
    renderWithProviders(mounted, '/admin/worker');
    await screen.findByRole('heading', { name: 'Jobs' });
    fireEvent.click(within(jobsTable()).getByRole('button', { name: 'Run now refresh' }));
    await waitFor(() => expect(screen.getByText('Too many requests, slow down')).toBeTruthy());
  });

  it('shows a failed load as an alert with Retry', async () => {
    const down = json({ success: false, error: 'The database is unavailable' }, 503);
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/worker': [down, down, answer(status)],
    });
    renderWithProviders(mounted, '/admin/worker');
    // The console retries a failed read once (after a second) before showing the error.
    const message = await screen.findByText('The database is unavailable', {}, { timeout: 4000 });
    const alert = message.closest<HTMLElement>('[role="alert"]');
    if (!alert) throw new Error('the error is not announced');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('heading', { name: 'Jobs' });
  });
});
