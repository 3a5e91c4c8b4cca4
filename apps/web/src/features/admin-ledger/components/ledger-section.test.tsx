import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminLedgerCheck, AdminLedgerEdition, AdminLedgerResponse } from '@manaboard/contract/admin';
import { AdminApp } from '../../../components/admin/admin-app';
import {
  adminSessionAnswer,
  fakeReferralService,
  json,
  requestsTo,
} from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { LedgerSection } from './ledger-section';

const hash = `sha256:${'ab'.repeat(32)}`;
const edition = (n: number, extra: Partial<AdminLedgerEdition> = {}): AdminLedgerEdition => ({
  edition: n,
  createdAt: '2026-10-14T06:10:00.000Z',
  createdBy: n === 1 ? 'worker' : 'admin:@ops (1)',
  reason: n === 1 ? null : 'a member disqualified after the close',
  sha256: hash,
  byteLength: 42_000,
  members: 1234,
  mana: 56_789,
  url: `https://board.example.org/api/ledger/2026-W40/${n}`,
  text: `Week 40 of 2026: 1,234 members earned 56,789 Mana. Ledger: https://board.example.org/api/ledger/2026-W40/${n} ${hash}`,
  published: null,
  publishing: { attempts: 0, error: null, nextAt: null },
  ...extra,
});
const answer = (automatic: boolean, editions: AdminLedgerEdition[]): AdminLedgerResponse => ({
  success: true,
  data: {
    automatic,
    officialAccount: 'ManaboardHQ',
    weeks: [
      { week: '2026-W48', state: 'open', closesAt: '2026-12-03T00:00:00.000Z', editions: [] },
      { week: '2026-W40', state: 'closed', closesAt: null, editions },
    ],
  },
});
const check = (extra: Partial<AdminLedgerCheck>): AdminLedgerCheck => ({
  week: '2026-W40',
  edition: 1,
  stored: hash,
  current: hash,
  identical: true,
  figuresChanged: false,
  membersChanged: 0,
  members: [],
  ...extra,
});

const mounted = (
  <Routes>
    <Route
      path="/admin/*"
      element={<AdminApp sections={[{ path: 'ledger', label: 'Ledger', Component: LedgerSection }]} />}
    />
  </Routes>
);

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('the ledger section', () => {
  it('lists open and closed weeks, and the text to post by hand with a copy button', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    fakeReferralService({
      'GET /api/admin/session': adminSessionAnswer(),
      'GET /api/admin/ledger': () => json(answer(false, [edition(1)])),
    });
    renderWithProviders(mounted, '/admin/ledger');
    const w40 = await screen.findByRole('listitem', { name: '2026-W40' });
    expect(within(w40).getByText('closed')).toBeTruthy();
    expect(within(w40).getByText(hash)).toBeTruthy();
    expect(within(w40).getByText('1,234 members, 56,789 Mana')).toBeTruthy();
    expect(within(w40).getByText(/post this text from @ManaboardHQ by hand/)).toBeTruthy();
    expect(within(w40).getByLabelText('Text to post').textContent).toBe(edition(1).text);
    fireEvent.click(within(w40).getByRole('button', { name: 'Copy text of edition 1' }));
    await within(w40).findByRole('button', { name: 'Copied text of edition 1' });
    expect(writeText).toHaveBeenCalledWith(edition(1).text);
    const w48 = screen.getByRole('listitem', { name: '2026-W48' });
    expect(within(w48).getByText(/Closes after 3 Dec 2026, 00:00 UTC/)).toBeTruthy();
  });

  it('shows the published post, or the failed attempt and the next try', async () => {
    fakeReferralService({
      'GET /api/admin/session': adminSessionAnswer(),
      'GET /api/admin/ledger': () =>
        json(
          answer(true, [
            edition(1, {
              published: {
                uri: 'at://did:plc:hq/app.bsky.feed.post/3kabc',
                cid: 'bafyreihq',
                at: '2026-10-14T06:20:00.000Z',
                url: 'https://bsky.app/profile/hq.example/post/3kabc',
              },
            }),
            edition(2, {
              publishing: { attempts: 2, error: 'HTTP 502', nextAt: '2026-10-20T08:00:00.000Z' },
            }),
          ]),
        ),
    });
    renderWithProviders(mounted, '/admin/ledger');
    const w40 = await screen.findByRole('listitem', { name: '2026-W40' });
    const link = within(w40).getByRole('link', { name: 'see the post' });
    expect(link.getAttribute('href')).toBe('https://bsky.app/profile/hq.example/post/3kabc');
    expect(
      within(w40).getByText(/attempt 2 failed \(HTTP 502\)\. Next try 20 Oct 2026, 08:00 UTC\./),
    ).toBeTruthy();
    expect(within(w40).getByText(/a member disqualified after the close/)).toBeTruthy();
  });

  it('checks a week and, when its figures changed, issues a correction with a reason after asking', async () => {
    let corrected = false;
    const fetchMock = fakeReferralService({
      'GET /api/admin/session': adminSessionAnswer(),
      'GET /api/admin/ledger': () => json(answer(false, corrected ? [edition(1), edition(2)] : [edition(1)])),
      'POST /api/admin/ledger/check': () =>
        json({
          success: true,
          data: check({
            identical: false,
            figuresChanged: true,
            membersChanged: 1,
            current: `sha256:${'cd'.repeat(32)}`,
            members: [
              { author: 'did:plc:bob', handle: 'bob.test', before: { mana: 40, rank: 2 }, after: null },
            ],
          }),
        }),
      'POST /api/admin/ledger/correct': () => {
        corrected = true;
        return json({ success: true, data: { edition: 2, sha256: hash, membersChanged: 1 } });
      },
    });
    renderWithProviders(mounted, '/admin/ledger');
    const w40 = await screen.findByRole('listitem', { name: '2026-W40' });
    fireEvent.click(within(w40).getByRole('button', { name: 'Check 2026-W40 against the data now' }));
    await within(w40).findByText(/The figures changed since edition 1: 1 member moved\./);
    expect(within(w40).getByText(/#2, 40 Mana → not on the board/)).toBeTruthy();
    const submit = within(w40).getByRole('button', { name: 'Issue correction' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(w40).getByLabelText('Reason (kept in the audit log)'), {
      target: { value: 'bob was disqualified' },
    });
    fireEvent.click(submit);
    const dialog = await screen.findByRole('dialog', { name: 'Issue a correction of 2026-W40?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue correction' }));
    await screen.findByText(/Edition 2 stored/);
    expect(requestsTo(fetchMock, 'POST /api/admin/ledger/correct')[0]?.body).toEqual({
      week: '2026-W40',
      reason: 'bob was disqualified',
    });
    await waitFor(() => expect(screen.getAllByRole('heading', { name: /^Edition / })).toHaveLength(2));
  });

  it('says when a check finds nothing to correct', async () => {
    fakeReferralService({
      'GET /api/admin/session': adminSessionAnswer(),
      'GET /api/admin/ledger': () => json(answer(false, [edition(1)])),
      'POST /api/admin/ledger/check': () => json({ success: true, data: check({}) }),
    });
    renderWithProviders(mounted, '/admin/ledger');
    const w40 = await screen.findByRole('listitem', { name: '2026-W40' });
    fireEvent.click(within(w40).getByRole('button', { name: 'Check 2026-W40 against the data now' }));
    await within(w40).findByText('The data still give edition 1 byte for byte: nothing to correct.');
    expect(within(w40).queryByRole('button', { name: 'Issue correction' })).toBeNull();
  });
});
