import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render-with-providers';
import { community, queriesTo, serveBoard, settle } from '../../../test/leaderboard-fixtures';
import { BreakdownDialog } from './breakdown-dialog';

const postLine = (id: string, overrides: Record<string, unknown> = {}) => ({
  type: 'post',
  postId: id,
  url: `https://x.com/ann/status/${id}`,
  createdAt: '2026-11-18T10:00:00.000Z',
  likes: 10,
  replies: 2,
  reposts: 1,
  quotes: 1,
  multiplier: 3,
  mana: 57,
  status: 'live',
  final: false,
  overDailyLimit: false,
  ...overrides,
});
const interaction = (postId: string, status: string, mana: number) => ({
  type: 'interaction',
  postId,
  kind: 'reply',
  status,
  mana,
  reward: 3,
  at: '2026-11-18T11:00:00.000Z',
  checkAfter: '2026-11-19T11:00:00.000Z',
  settleBy: '2026-11-21T11:00:00.000Z',
});
const lines = [
  postLine('1'),
  postLine('2', { final: true, overDailyLimit: true, mana: 0 }),
  { type: 'referral', refereeHandle: null, count: 2, mana: 100, at: null },
  interaction('900', 'pending', 0),
  interaction('901', 'credited', 3),
  interaction('902', 'void', 0),
];
const body = (totalMana = 160) =>
  community({
    success: true,
    data: {
      authorId: '42',
      authorName: 'ann',
      period: '2026-11-16',
      totalMana,
      weights: { like: 1, reply: 2, repost: 2, quote: 3 },
      lines,
    },
  });

const target = { authorId: '42', authorName: 'ann', figure: 160, weekly: true };

beforeEach(() => vi.useFakeTimers());

describe('BreakdownDialog (the lines behind a Mana figure)', () => {
  it('lists posts with counts × weights × multiplier, referrals and interactions with due dates, summing to the figure', async () => {
    const fetchMock = serveBoard({ 'GET /api/mana/42/breakdown': body() });
    renderWithProviders(<BreakdownDialog target={target} open onClose={() => undefined} />);
    await settle();
    const dialog = screen.getByRole('dialog', { name: 'Mana breakdown: @ann' });
    expect(queriesTo(fetchMock, '/api/mana/42/breakdown')[0]?.get('weekly')).toBe('true');
    await settle();
    const table = within(dialog).getByTestId('breakdown-table');
    const manas = within(table)
      .getAllByTestId('line-mana')
      .map((cell) => Number(cell.getAttribute('data-mana')));
    expect(manas).toEqual([57, 0, 100, 0, 3, 0]);
    expect(within(table).getByTestId('breakdown-total').textContent).toBe('160');
    expect(manas.reduce((a, b) => a + b, 0)).toBe(target.figure);
    expect(within(dialog).getAllByText(/10 likes × 1/)).toHaveLength(2);
    expect(within(dialog).getAllByText(/× 3 \(linked\)/)).toHaveLength(2);
    expect(within(dialog).getByText('Over daily limit: 0')).toBeTruthy();
    // Post 1 still moves; the pending interaction too.
    expect(within(dialog).getAllByText('Pending')).toHaveLength(2);
    expect(within(dialog).getByText('Final')).toBeTruthy();
    expect(within(dialog).getByText('2 referred members')).toBeTruthy();
    expect(within(dialog).getByText(/due between Nov 19, 11:00 UTC and Nov 21, 11:00 UTC/)).toBeTruthy();
    expect(within(dialog).getByText('Credited')).toBeTruthy();
    expect(within(dialog).getByText('Void')).toBeTruthy();
    expect(within(dialog).getByText('Posts subtotal').nextSibling?.textContent).toBe('57');
    expect(within(dialog).queryByText(/catches up/)).toBeNull();
  });

  it('says so when the leaderboard figure has not caught up with the lines yet', async () => {
    serveBoard({ 'GET /api/mana/42/breakdown': body() });
    renderWithProviders(
      <BreakdownDialog target={{ ...target, figure: 150 }} open onClose={() => undefined} />,
    );
    await settle();
    await settle();
    expect(screen.getByText(/The leaderboard shows 150: it catches up/)).toBeTruthy();
  });

  it('shows an error line when the breakdown cannot be read', async () => {
    serveBoard({
      'GET /api/mana/42/breakdown': community(
        { success: false, error: 'No such author on the leaderboard' },
        404,
      ),
    });
    renderWithProviders(<BreakdownDialog target={target} open onClose={() => undefined} />);
    await settle(1500);
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('Error: No such author on the leaderboard');
  });
});
