import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, requestsTo } from '../../../test/fake-referral-service';
import { author, community, queriesTo } from '../../../test/leaderboard-fixtures';
import { card, registerCardTestLifecycle, serve, settle } from './linked-card.test-support';

const alice = author(7, {
  authorName: 'alice',
  authorId: '77',
  totalMana: 12_345,
  likes: 1500,
  retweets: 20,
  replies: 30,
  totalPosts: 4,
});

function serveStats(routes: Parameters<typeof serve>[0] = {}) {
  return serve({
    'GET /api/mana': community({
      success: true,
      data: { authors: [alice], total: 1, period: 'all', updatedAt: null },
    }),
    'GET /referrals/stats': ok({ refereeCount: 3 }),
    'GET /api/daily-post-limit': community({ success: true, config: { dailyLimit: 5 } }),
    'GET /api/daily-post-limit/user/77': community({
      success: true,
      user: { authorId: '77', currentCount: 2, dailyLimit: 5, resetsAt: '2026-11-24T00:00:00.000Z' },
    }),
    ...routes,
  });
}

const stats = () => screen.getByTestId('card-stats');
const toggle = () => screen.getByRole('button', { name: /Your stats/ });
const panel = () => document.getElementById('card-stats-panel') as HTMLElement;

registerCardTestLifecycle();

describe('LinkedCard stats (SPEC §2: on hover, focus and tap)', () => {
  it('asks for nothing until shown; on hover shows rank, counts, referees, daily posts, total and the handle in capitals', async () => {
    const fetchMock = serveStats();
    card();
    await settle();
    expect(panel().hidden).toBe(true);
    expect(queriesTo(fetchMock, '/api/mana')).toHaveLength(0);
    fireEvent.mouseEnter(stats());
    await settle();
    await settle();
    expect(panel().hidden).toBe(false);
    expect(queriesTo(fetchMock, '/api/mana')[0]?.toString()).toBe('limit=10&search=alice');
    expect(requestsTo(fetchMock, 'GET /referrals/stats')).toHaveLength(1);
    const view = within(panel());
    expect(screen.getByTestId('stats-rank').textContent).toBe('Rank #7');
    expect(screen.getByTestId('stats-handle').textContent).toBe('@ALICE');
    expect(view.getByText('1,500')).toBeTruthy();
    expect(view.getByText('Referees').nextSibling?.textContent).toBe('3');
    expect(view.getByText('Posts').nextSibling?.textContent).toBe('4');
    expect(screen.getByTestId('stats-daily').textContent).toBe('2/5');
    expect(screen.getByTestId('stats-total').textContent).toBe('12,345');
    fireEvent.mouseLeave(stats());
    expect(panel().hidden).toBe(true);
  });

  it('shows on keyboard focus and hides when focus leaves the card stats', async () => {
    serveStats();
    card();
    await settle();
    toggle().focus();
    await settle();
    expect(panel().hidden).toBe(false);
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    screen.getByRole('button', { name: /Total Mana/ }).focus();
    await settle();
    expect(panel().hidden).toBe(false);
    screen.getByRole('button', { name: 'Unlink' }).focus();
    await settle();
    expect(panel().hidden).toBe(true);
  });

  it('toggles on tap (touch has no hover)', async () => {
    serveStats();
    card();
    await settle();
    fireEvent.click(toggle());
    await settle();
    expect(panel().hidden).toBe(false);
    fireEvent.click(toggle());
    expect(panel().hidden).toBe(true);
  });

  it('shows rank #0 and zeros for a member without a row, and 0/0 when the daily-limit call fails', async () => {
    serveStats({
      'GET /api/mana': community({
        success: true,
        data: { authors: [author(1, { authorName: 'alice_two' })], total: 1, period: 'all', updatedAt: null },
      }),
      'GET /api/daily-post-limit': new Response('down', { status: 503 }),
    });
    card();
    await settle();
    fireEvent.click(toggle());
    await settle(1500);
    await settle();
    expect(screen.getByTestId('stats-rank').textContent).toBe('Rank #0');
    expect(screen.getByTestId('stats-total').textContent).toBe('0');
    expect(screen.getByTestId('stats-daily').textContent).toBe('0/0');
  });

  it("shows 0/0 when the member's own daily count fails", async () => {
    serveStats({ 'GET /api/daily-post-limit/user/77': new Response('down', { status: 500 }) });
    card();
    await settle();
    fireEvent.click(toggle());
    await settle(1500);
    await settle();
    expect(screen.getByTestId('stats-rank').textContent).toBe('Rank #7');
    expect(screen.getByTestId('stats-daily').textContent).toBe('0/0');
  });
});
