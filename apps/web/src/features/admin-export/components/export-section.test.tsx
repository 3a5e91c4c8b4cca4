import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RewardsExport } from '@manaboard/contract/admin';
import { AdminApp } from '../../../components/admin/admin-app';
import {
  adminSessionAnswer,
  fakeReferralService,
  json,
  requestsTo,
} from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { isoWeekOf } from '@manaboard/contract/admin';
import { ExportSection } from './export-section';

const session = adminSessionAnswer();

const lastWeek = isoWeekOf(new Date(Date.now() - 7 * 86_400_000));
const weekly: RewardsExport = {
  period: lastWeek,
  from: '2026-11-16T00:00:00.000Z',
  until: '2026-11-23T00:00:00.000Z',
  generatedAt: '2026-11-24T09:00:00.000Z',
  rows: [
    { rank: 1, handle: 'alice', networkUserId: '1001', mana: 1250, posts: 14, referrals: 2 },
    { rank: 2, handle: 'bob', networkUserId: '1002', mana: 900, posts: 9, referrals: 0 },
  ],
};
const allTime: RewardsExport = {
  ...weekly,
  period: 'all',
  from: null,
  until: null,
  rows: [{ rank: 1, handle: 'carol', networkUserId: '1003', mana: 15_000, posts: 120, referrals: 7 }],
};
const exportRoute = ({ url }: { url: URL }) => {
  const period = url.searchParams.get('period');
  if (period === 'all') return json({ success: true, data: allTime });
  if (period === lastWeek) return json({ success: true, data: weekly });
  return json({ success: true, data: { ...weekly, period, rows: [] } });
};

const mounted = (
  <Routes>
    <Route
      path="/admin/*"
      element={
        <AdminApp sections={[{ path: 'export', label: 'Rewards export', Component: ExportSection }]} />
      }
    />
  </Routes>
);
// jsdom has no layout: both the phone cards and the desktop table are in the document. Read the table.
const table = () => screen.getByRole('table');

let saved: { name: string; blob: Blob }[] = [];
beforeEach(() => {
  saved = [];
  let blob: Blob | null = null;
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: (b: Blob) => {
      blob = b;
      return 'blob:export';
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
  // jsdom cannot navigate to a blob: keep what the browser would have saved.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (blob) saved.push({ name: this.download, blob });
  });
});
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('the rewards export section', () => {
  it('shows last week by default as a table of rank, handle, id, Mana, posts and referrals', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/export': exportRoute,
    });
    renderWithProviders(mounted, '/admin/export');
    await screen.findByRole('table');
    expect((screen.getByLabelText('Period') as HTMLSelectElement).value).toBe(lastWeek);
    const rows = within(table())
      .getAllByRole('row')
      .map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Rank', 'Handle', 'Network user id', 'Mana', 'Posts', 'Referrals'],
      ['1', '@alice', '1001', '1,250', '14', '2'],
      ['2', '@bob', '1002', '900', '9', '0'],
    ]);
    expect(screen.getByText(/16 Nov 2026 to 22 Nov 2026 \(UTC\)/)).toBeTruthy();
    const [call] = requestsTo(fetchMock, 'GET /api/admin/export');
    expect(call?.headers.has('x-user-id')).toBe(false);
  });

  it('offers twelve finished weeks and all time, and shows the period chosen', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/export': exportRoute,
    });
    renderWithProviders(mounted, '/admin/export');
    await screen.findByRole('table');
    const select = screen.getByLabelText('Period') as HTMLSelectElement;
    const options = [...select.options].map((o) => o.value);
    expect(options).toHaveLength(13);
    expect(options.at(-1)).toBe('all');
    expect(options).not.toContain(isoWeekOf(new Date()));
    fireEvent.change(select, { target: { value: 'all' } });
    await within(await screen.findByRole('table')).findByText('@carol');
    expect(screen.queryByText('@alice')).toBeNull();
    const periods = fetchMock.mock.calls
      .map(([input]) => new URL(input, 'http://localhost'))
      .filter((url) => url.pathname === '/api/admin/export')
      .map((url) => url.searchParams.get('period'));
    expect(periods).toEqual([lastWeek, 'all']);
    fireEvent.change(select, { target: { value: options[2] } });
    expect(await screen.findByText(`No member earned Mana in week ${options[2]}.`)).toBeTruthy();
  });

  it("downloads the period's CSV and JSON through the session cookie", async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/export': exportRoute,
      'GET /api/admin/export.csv': new Response('rank,handle\n1,alice\n', {
        headers: {
          'content-type': 'text/csv',
          'content-disposition': `attachment; filename="manaboard-rewards-${lastWeek}.csv"`,
        },
      }),
    });
    renderWithProviders(mounted, '/admin/export');
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await screen.findByText(`Downloaded the export of week ${lastWeek}.`);
    fireEvent.click(screen.getByRole('button', { name: 'Download JSON' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    const [csv, file] = saved as [{ name: string; blob: Blob }, { name: string; blob: Blob }];
    expect(csv.name).toBe(`manaboard-rewards-${lastWeek}.csv`);
    expect(await csv.blob.text()).toBe('rank,handle\n1,alice\n');
    expect(file.name).toBe(`manaboard-rewards-${lastWeek}.json`);
    expect(JSON.parse(await file.blob.text())).toEqual(weekly);
    const csvCall = fetchMock.mock.calls.find(([input]) => input.startsWith('/api/admin/export.csv'));
    expect(new URL(csvCall?.[0] ?? '', 'http://localhost').searchParams.get('period')).toBe(lastWeek);
    expect(csvCall?.[1]?.credentials).toBe('same-origin');
  });

  it('says why a download failed', async () => {
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/export': exportRoute,
      'GET /api/admin/export.csv': json({ success: false, error: 'Too many requests, slow down' }, 429),
    });
    renderWithProviders(mounted, '/admin/export');
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await screen.findByText('The download failed: Too many requests, slow down');
    expect(saved).toHaveLength(0);
  });

  it('shows a failed export as an alert with Retry', async () => {
    const down = json({ success: false, error: 'The database is unavailable' }, 503);
    fakeReferralService({
      'GET /api/admin/session': session,
      'GET /api/admin/export': [down, down, json({ success: true, data: weekly })],
    });
    renderWithProviders(mounted, '/admin/export');
    // The console retries a failed read once (after a second) before showing the error.
    const message = await screen.findByText('The database is unavailable', {}, { timeout: 4000 });
    const alert = message.closest<HTMLElement>('[role="alert"]');
    if (!alert) throw new Error('the error is not announced');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table');
  });
});
