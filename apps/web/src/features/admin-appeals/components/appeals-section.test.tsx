import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperatorAppeal } from '@manaboard/contract/admin';

import { setAdminCsrfToken } from '../../../lib/admin-api';
import { fakeReferralService, json, requestsTo } from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { AppealsSection } from './appeals-section';

const listOf = (appeals: OperatorAppeal[]) =>
  json({ success: true, data: { appeals, total: appeals.length } });

const open: OperatorAppeal = {
  id: '7',
  authorId: '1001',
  handle: 'alice',
  text: 'Those likes came from my real friends, please look again.',
  createdAt: '2026-11-23T09:00:00.000Z',
  answer: null,
  answeredAt: null,
  answeredBy: null,
  disqualifiedAt: '2026-11-22T09:00:00.000Z',
  reason: 'Reciprocal-engagement ring',
};
const answered: OperatorAppeal = {
  ...open,
  id: '3',
  handle: 'bob',
  authorId: '2002',
  answer: 'We looked again: the ring is real.',
  answeredAt: '2026-11-20T10:00:00.000Z',
  answeredBy: 'admin:@ManaboardHQ (42)',
};

const mounted = (
  <Routes>
    <Route path="/admin/appeals/*" element={<AppealsSection />} />
  </Routes>
);

beforeEach(() => setAdminCsrfToken('admin-token'));
afterEach(() => {
  setAdminCsrfToken(null);
  vi.unstubAllGlobals();
});

describe('the Appeals section', () => {
  it('lists open appeals with the member, the reason and the text, and shows all on request', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/appeals': ({ url }) =>
        url.searchParams.get('status') === 'all' ? listOf([open, answered]) : listOf([open]),
    });
    renderWithProviders(mounted, '/admin/appeals');
    const list = await screen.findByRole('list', { name: 'Open appeals, newest first' });
    const [card] = within(list).getAllByRole('listitem');
    expect(within(card!).getByRole('link', { name: '@alice' }).getAttribute('href')).toBe(
      '/admin/members/1001',
    );
    expect(card!.textContent).toContain('Reciprocal-engagement ring');
    expect(card!.textContent).toContain('Those likes came from my real friends');
    expect(within(card!).getByRole('link', { name: 'Requalify @alice on their page' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    const all = await screen.findByRole('list', { name: 'All appeals, newest first' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(2);
    expect(all.textContent).toContain('Answered by admin:@ManaboardHQ (42)');
    expect(all.textContent).toContain('We looked again: the ring is real.');
    const statuses = requestsTo(fetchMock, 'GET /api/admin/appeals').map((_, i) =>
      new URL(String(fetchMock.mock.calls[i]?.[0]), 'http://localhost').searchParams.get('status'),
    );
    expect(statuses).toEqual(['open', 'all']);
  });

  it('answers an appeal with the CSRF token and shows it answered', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/appeals': listOf([open]),
      'POST /api/admin/appeals/7/answer': json({
        success: true,
        data: {
          id: '7',
          text: open.text,
          createdAt: open.createdAt,
          answer: 'Requalified: your friends check out.',
          answeredAt: '2026-11-24T12:00:00.000Z',
        },
      }),
    });
    renderWithProviders(mounted, '/admin/appeals');
    const form = await screen.findByRole('form', { name: 'Answer @alice' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    expect(within(form).getByText('Write an answer first.')).toBeTruthy();
    expect(requestsTo(fetchMock, 'POST /api/admin/appeals/7/answer')).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText(/^Answer/), {
      target: { value: ' Requalified: your friends check out. ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    await screen.findByText('Answer sent to @alice; they read it on their card.');
    const [call] = requestsTo(fetchMock, 'POST /api/admin/appeals/7/answer');
    expect(call?.body).toEqual({ answer: 'Requalified: your friends check out.' });
    expect(call?.headers.get('x-csrf-token')).toBe('admin-token');

    const card = screen.getByRole('listitem');
    expect(within(card).getByText('Answered')).toBeTruthy();
    expect(card.textContent).toContain('Requalified: your friends check out.');
    expect(screen.queryByRole('form', { name: 'Answer @alice' })).toBeNull();
  });

  it('keeps the typed answer and says why when answering fails', async () => {
    fakeReferralService({
      'GET /api/admin/appeals': listOf([open]),
      'POST /api/admin/appeals/7/answer': json({ success: false, error: 'No such appeal' }, 404),
    });
    renderWithProviders(mounted, '/admin/appeals');
    const form = await screen.findByRole('form', { name: 'Answer @alice' });
    const field = within(form).getByLabelText(/^Answer/);
    fireEvent.change(field, { target: { value: 'Sorry, no.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('No such appeal');
    expect((field as HTMLTextAreaElement).value).toBe('Sorry, no.');
  });

  it('shows the empty state, and a failed list with Retry', async () => {
    fakeReferralService({
      'GET /api/admin/appeals': [
        json({ success: false, error: 'Something went wrong on our side.' }, 500),
        json({ success: false, error: 'Something went wrong on our side.' }, 500),
        listOf([]),
      ],
    });
    renderWithProviders(mounted, '/admin/appeals');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(screen.getByText('No open appeals: none is waiting for an answer.')).toBeTruthy(),
    );
  });
});
