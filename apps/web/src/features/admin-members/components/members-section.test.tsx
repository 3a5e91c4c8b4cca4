import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeReferralService, json, requestsTo } from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { found, mounted, registerMembersTestLifecycle, summary } from './members-section.test-support';

registerMembersTestLifecycle();

describe('the Members section: search', () => {
  it('searches from the URL, keeps a new query in the URL, and goes back to the previous search', async () => {
    const fetchMock = fakeReferralService({
      'GET /api/admin/members': ({ url }) =>
        url.searchParams.get('q') === 'ali'
          ? found([summary('alice'), summary('alina', { disqualified: true, mana: null, rank: null })])
          : found([summary('bob')]),
    });
    renderWithProviders(mounted, '/admin/members?q=ali');
    const table = await screen.findByRole('table', { name: 'Members matching “ali”' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByRole('link', { name: '@alice' }).getAttribute('href')).toBe(
      '/admin/members/id-alice',
    );
    expect(rows[2]!.textContent).toContain('Disqualified');
    expect(screen.getByRole('list', { name: 'Members matching “ali”' }).children).toHaveLength(2);
    expect(screen.getByText('2 matches.')).toBeTruthy();

    const field = screen.getByLabelText('Handle or name');
    expect((field as HTMLInputElement).value).toBe('ali');
    fireEvent.change(field, { target: { value: ' @bob ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('table', { name: 'Members matching “@bob”' });
    expect(screen.getByTestId('location').textContent).toBe('/admin/members?q=%40bob');
    expect(requestsTo(fetchMock, 'GET /api/admin/members')).toHaveLength(2);
    const lastUrl = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost');
    expect(lastUrl.searchParams.get('q')).toBe('@bob');

    fireEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await screen.findByRole('table', { name: 'Members matching “ali”' });
    expect((screen.getByLabelText('Handle or name') as HTMLInputElement).value).toBe('ali');
  });

  it('says so when nothing matches, and asks for a query before searching', async () => {
    const fetchMock = fakeReferralService({ 'GET /api/admin/members': found([]) });
    renderWithProviders(mounted, '/admin/members');
    expect(screen.getByText(/Search authors and linked members/)).toBeTruthy();
    expect(requestsTo(fetchMock, 'GET /api/admin/members')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Handle or name'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No author or member matches “nobody”.')).toBeTruthy();
  });

  it('shows a failed search with Retry, which searches again', async () => {
    fakeReferralService({
      'GET /api/admin/members': [
        json({ success: false, error: 'Too many requests, slow down.' }, 429),
        json({ success: false, error: 'Too many requests, slow down.' }, 429),
        found([summary('alice')]),
      ],
    });
    renderWithProviders(mounted, '/admin/members?q=alice');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain('Too many requests, slow down.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Members matching “alice”' })).toBeTruthy();
  });
});
