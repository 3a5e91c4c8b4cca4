import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getBrowserId } from '../../../lib/browser-id';
import { ok } from '../../../test/fake-referral-service';
import { noBreakdown } from '../../../test/no-breakdown';
import { renderWithProviders } from '../../../test/render-with-providers';
import { LeaderboardPanel } from './leaderboard-panel';
import {
  author,
  community,
  manaRoute,
  queriesTo,
  serveBoard,
  settle,
  stubWidth,
} from '../../../test/leaderboard-fixtures';

const rows = () => screen.getAllByTestId('rank-row');
const rankOf = (row: Element | undefined) => row?.querySelector('[data-rank]');
const search = () => screen.getByRole('searchbox', { name: 'Search authors and posts' });

beforeEach(() => {
  vi.useFakeTimers();
  stubWidth(1280);
});
afterEach(() => localStorage.clear());

describe('LeaderboardPanel: ranks (SPEC §2, §4, §5)', () => {
  it('shows the spinner image while loading, then 20 rows with global ranks, colours and rounded Mana', async () => {
    const fetchMock = serveBoard();
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    const spinner = screen.getByRole('status');
    expect(within(spinner).getByRole('img').getAttribute('src')).toBe('/spinner-mana.svg');
    await settle();
    expect(rows()).toHaveLength(20);
    expect(queriesTo(fetchMock, '/api/mana')[0]?.toString()).toBe('limit=20');
    const first = within(rows()[0] as HTMLElement);
    expect(rows().map((row) => rankOf(row)?.textContent)).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i + 1)),
    );
    expect(rankOf(rows()[0])?.className).toContain('text-gold');
    expect(rankOf(rows()[1])?.className).toContain('text-slate-300');
    expect(rankOf(rows()[2])?.className).toContain('text-orange-400');
    expect(rankOf(rows()[3])?.className).not.toMatch(/gold|slate|orange/);
    expect(first.getByText('@author_1')).toBeTruthy();
    expect(first.getByTestId('author-letter').textContent).toBe('A');
    expect(first.getByRole('button', { name: /^99,000 Mana/ })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      '#',
      'User',
      'Tracked Post',
      'Mana',
    ]);
  });

  it('falls back to the letter when an avatar fails to load', async () => {
    serveBoard({
      'GET /api/mana': manaRoute(1, () => []),
    });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    expect(screen.getByTestId('author-letter')).toBeTruthy();
  });

  it('"Show more" asks for the next 20 with offset and keeps the global ranks, until all are shown', async () => {
    const fetchMock = serveBoard();
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await settle();
    expect(queriesTo(fetchMock, '/api/mana')[1]?.get('offset')).toBe('20');
    expect(rows()).toHaveLength(40);
    expect(rankOf(rows()[20])?.textContent).toBe('21');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await settle();
    expect(rows()).toHaveLength(45);
    expect(rankOf(rows()[44])?.textContent).toBe('45');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('debounces the search by 600 ms: quick typing makes one request, @ and spaces ignored', async () => {
    const fetchMock = serveBoard({
      'GET /api/mana': manaRoute(45, (s) => (s === 'rune' ? [author(7, { authorName: 'rune' })] : [])),
    });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    for (const text of [' ', ' @', ' @r', ' @ru', ' @run', ' @rune ']) {
      fireEvent.change(search(), { target: { value: text } });
      await settle(100);
    }
    await settle(490);
    expect(queriesTo(fetchMock, '/api/mana')).toHaveLength(1);
    await settle(20);
    await settle();
    const calls = queriesTo(fetchMock, '/api/mana');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.get('search')).toBe('rune');
    expect(rows()).toHaveLength(1);
    expect(rankOf(rows()[0])?.textContent).toBe('7');
  });

  it('clears the search at once with the clear button, back to the full board', async () => {
    serveBoard();
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
    fireEvent.change(search(), { target: { value: 'nobody' } });
    await settle(600);
    await settle();
    expect(screen.getByText('No authors found matching "nobody"')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect((search() as HTMLInputElement).value).toBe('');
    await settle();
    expect(rows()).toHaveLength(20);
  });

  it('says "No authors available" when the board is empty', async () => {
    serveBoard({ 'GET /api/mana': manaRoute(0) });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    expect(screen.getByText('No authors available')).toBeTruthy();
  });

  it('toggles the period: weekly sends weekly=true; labelled This Week from 768 px, Weekly below', async () => {
    const fetchMock = serveBoard();
    const view = renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    const allTime = screen.getByRole('button', { name: 'All Time' });
    expect(allTime.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'This Week' }));
    await settle();
    expect(queriesTo(fetchMock, '/api/mana').at(-1)?.get('weekly')).toBe('true');
    expect(screen.getByRole('button', { name: 'This Week' }).getAttribute('aria-pressed')).toBe('true');
    view.unmount();
    stubWidth(767);
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    expect(screen.getByRole('button', { name: 'Weekly' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'This Week' })).toBeNull();
  });

  it('under 640 px shows one column that toggles between Mana and Tracked Post', async () => {
    stubWidth(375);
    serveBoard();
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    const headers = () => screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers()).toEqual(['#', 'User', 'Mana']);
    expect(within(rows()[0] as HTMLElement).getByRole('button', { name: /99,000 Mana/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Mana: show Tracked Post instead' }));
    expect(headers()).toEqual(['#', 'User', 'Tracked Post']);
    expect(within(rows()[0] as HTMLElement).queryByRole('button', { name: /Mana/ })).toBeNull();
    expect(within(rows()[0] as HTMLElement).getByText('tracked posts', { exact: false })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Tracked Post: show Mana instead' }));
    expect(headers()).toEqual(['#', 'User', 'Mana']);
  });

  it.each([
    [
      'the server text',
      community({ success: false, error: 'limit must be at most 100' }, 400),
      'Error: limit must be at most 100',
    ],
    [
      'an HTTP status',
      new Response('oops', { status: 502, statusText: 'Bad Gateway' }),
      'Error: HTTP error! status: 502',
    ],
    [
      'a body of the wrong shape',
      community({ success: true, data: 'nope' }),
      'Error: Failed to fetch authors',
    ],
  ])('shows an error with %s', async (_name, answer, text) => {
    serveBoard({ 'GET /api/mana': answer });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle(1500);
    expect(screen.getByRole('alert').textContent).toBe(text);
  });

  it("pins a linked member's own row at the bottom with its global rank when it is not shown", async () => {
    getBrowserId();
    const fetchMock = serveBoard({
      'GET /me/account': ok({ connected: true, handle: 'author_33', avatarUrl: null }),
      'GET /api/mana': manaRoute(45, (s) => (s === 'author_33' ? [author(33)] : [])),
    });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    const own = screen.getByTestId('own-row');
    expect(own.closest('tfoot')).not.toBeNull();
    expect(rankOf(own)?.textContent).toBe('33');
    expect(within(own).getByText('You')).toBeTruthy();
    const ownCall = queriesTo(fetchMock, '/api/mana').find((q) => q.get('search') === 'author_33');
    expect(ownCall?.get('limit')).toBe('10');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await settle();
    // Now on screen among the rows: marked there, no longer pinned.
    const inTable = screen.getByTestId('own-row');
    expect(inTable.closest('tbody')).not.toBeNull();
    expect(document.querySelector('tfoot')).toBeNull();
  });

  it('pins nothing for a visitor or a member without a row', async () => {
    getBrowserId();
    serveBoard({ 'GET /me/account': ok({ connected: true, handle: 'newbie', avatarUrl: null }) });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    expect(rows()).toHaveLength(20);
    expect(screen.queryByTestId('own-row')).toBeNull();
  });

  it('keeps the rows when "Show more" fails, and says why', async () => {
    serveBoard({
      'GET /api/mana': [manaRoute(45), new Response('down', { status: 500 })],
    });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await settle(1500);
    expect(rows()).toHaveLength(20);
    expect(screen.getByRole('alert').textContent).toBe('Error: HTTP error! status: 500');
  });
});

describe('LeaderboardPanel: tabs', () => {
  it('are real tabs: aria-selected, one tab stop, arrow keys move and select', async () => {
    // Real timers: the Posts panel is a lazy chunk, loaded by a real dynamic import.
    vi.useRealTimers();
    serveBoard({ 'GET /api/posts': community({ success: true, data: [] }) });
    renderWithProviders(<LeaderboardPanel breakdown={noBreakdown} />);
    await screen.findAllByTestId('rank-row');
    const ranks = screen.getByRole('tab', { name: 'Ranks' });
    const posts = screen.getByRole('tab', { name: 'Posts' });
    expect(ranks.getAttribute('aria-selected')).toBe('true');
    expect(posts.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(ranks.id);
    ranks.focus();
    fireEvent.keyDown(ranks, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(posts);
    expect(posts.getAttribute('aria-selected')).toBe('true');
    expect(ranks.getAttribute('tabindex')).toBe('-1');
    expect(await screen.findByText('No posts available')).toBeTruthy();
    fireEvent.keyDown(posts, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(ranks);
    fireEvent.keyDown(ranks, { key: 'End' });
    expect(document.activeElement).toBe(posts);
    fireEvent.keyDown(posts, { key: 'Home' });
    expect(ranks.getAttribute('aria-selected')).toBe('true');
  });
});
