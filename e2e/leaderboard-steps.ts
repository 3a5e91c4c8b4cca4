import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// The leaderboard e2e's locators, checks and steps, beside leaderboard.e2e.ts (as admin/*-steps.ts are) so that file
// keeps its cases under the 250-line limit; moved verbatim from it.

export const widths = [375, 768, 1280, 1600] as const;
export type Width = (typeof widths)[number];
/** Posts grid columns by width (SPEC §2): 1, then 2 from 768 px, 3 from 1280 px. */
export const gridColumns: Record<Width, number> = { 375: 1, 768: 2, 1280: 3, 1600: 3 };
export const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');

export const board = (page: Page) => page.locator('section[aria-labelledby="leaderboard-title"]');
export const rows = (page: Page) => page.getByTestId('rank-row');
export const rankOf = (row: ReturnType<Page['locator']>) => row.locator('[data-rank]').textContent();

export const LEADERBOARD = 'section[aria-labelledby="leaderboard-title"]';
export const CARD = 'section[aria-label="Mana card"]';
export const DIALOG = '[role="dialog"]';

/** Zero serious or critical accessibility findings in the parts this issue builds (`within`: CSS selectors). */
export async function expectAccessible(page: Page, what: string, within: string[]): Promise<void> {
  let axe = new AxeBuilder({ page });
  for (const selector of within) axe = axe.include(selector);
  const results = await axe.analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** A screenshot of the panel alone (the sticky page header would cover its top). */
export async function shootBoard(page: Page, file: string): Promise<void> {
  // Through the CSSOM: the app's CSP (rightly) refuses an injected <style>.
  const header = page.getByRole('banner');
  await header.evaluate((element: HTMLElement) => element.style.setProperty('position', 'static'));
  await board(page).screenshot({ path: path.join(screenshots, file) });
  await header.evaluate((element: HTMLElement) => element.style.removeProperty('position'));
}

/** The numbers in the open breakdown: each line's Mana, and the total it shows. */
export async function breakdownNumbers(page: Page) {
  const dialog = page.getByRole('dialog', { name: /Mana breakdown/ });
  await dialog.getByTestId('breakdown-total').or(dialog.getByRole('alert')).waitFor();
  if (await dialog.getByRole('alert').isVisible()) {
    throw new Error(`the breakdown failed: ${await dialog.getByRole('alert').textContent()}`);
  }
  const lines = await dialog
    .getByTestId('line-mana')
    .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-mana'))));
  const total = Number((await dialog.getByTestId('breakdown-total').textContent())?.replace(/,/g, ''));
  return { dialog, lines, total };
}

/** Posts by keyboard (the tabs are real tabs), a grid of 1/2/3 columns of our own cards (simulated X). */
export async function showsPostsGrid(page: Page, width: Width): Promise<void> {
  await page.getByRole('tab', { name: 'Ranks' }).focus();
  await page.keyboard.press('ArrowRight');
  expect(await page.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true');
  const grid = page.getByTestId('posts-grid');
  await grid.waitFor();
  const columns = await grid.evaluate(
    (element) => getComputedStyle(element).gridTemplateColumns.split(' ').length,
  );
  expect(columns).toBe(gridColumns[width]);
  expect(await page.getByTestId('post-card').count()).toBeGreaterThan(0);
  expect(await page.locator('script[src*="platform.twitter.com"], iframe').count()).toBe(0);
  await page
    .getByTestId('post-card')
    .first()
    .getByText(/Pending|Final/)
    .waitFor();
  if (width === 1280) await expectAccessible(page, `posts ${width}`, [LEADERBOARD]);
  await shootBoard(page, `leaderboard-posts-${width}.png`);
}
