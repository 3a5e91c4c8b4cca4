import type { BreakdownOpener } from '../lib/breakdown-target';

/**
 * For tests that mount the leaderboard or the card without the page around them: the page owns the breakdown
 * dialog (app/routes/main-page.tsx) and its tests open it; here a figure opens nothing.
 */
export const noBreakdown: BreakdownOpener = { open: () => undefined, preload: () => undefined };
