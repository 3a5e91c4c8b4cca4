import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { requestsTo } from '../../test/fake-referral-service';
import { community, serveBoard } from '../../test/leaderboard-fixtures';
import { renderWithProviders } from '../../test/render-with-providers';
import { MainPage } from './main-page';

// The page owns the one breakdown dialog and hands its opener to the leaderboard (and the card): this is the
// wiring the features no longer do themselves. Real timers: the dialog is a lazy chunk, loaded by a real import.
const breakdown = community({
  success: true,
  data: {
    authorId: '1001',
    authorName: 'author_1',
    period: 'all',
    totalMana: 99_000,
    weights: { like: 1, reply: 2, repost: 2, quote: 3 },
    lines: [{ type: 'referral', refereeHandle: null, count: 1, mana: 99_000, at: null }],
  },
});

afterEach(() => localStorage.clear());

describe('MainPage: the Mana breakdown', () => {
  it("opens from a leaderboard figure with that author's lines for the period shown", async () => {
    const fetchMock = serveBoard({ 'GET /api/mana/1001/breakdown': breakdown });
    renderWithProviders(
      <Routes>
        <Route path="/" element={<MainPage />} />
      </Routes>,
    );
    const figure = await screen.findByRole(
      'button',
      { name: '99,000 Mana: show the breakdown of @author_1' },
      { timeout: 5000 },
    );
    fireEvent.click(figure);
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Mana breakdown: @author_1' },
      { timeout: 5000 },
    );
    expect(await within(dialog).findByTestId('breakdown-total', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(dialog).getByTestId('breakdown-total').textContent).toBe('99,000');
    expect(requestsTo(fetchMock, 'GET /api/mana/1001/breakdown')).toHaveLength(1);
    // Three waits of up to 5 s each: the page, then the dialog's chunk, load for real on a busy machine.
  }, 20_000);
});
