import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoSeriousAxeFindings } from '../support/admin-console';
import { openConsoleSection } from './open-section';

const flagsList = (page: Page) => page.getByRole('list', { name: 'Flags, strongest first' });
const emptyState = (page: Page) => page.getByText(/^No flags stand\./);

/** Waits for the list or its empty state; true when flags stand. */
async function flagsShown(page: Page): Promise<boolean> {
  await flagsList(page).or(emptyState(page)).first().waitFor();
  return flagsList(page).isVisible();
}

/**
 * On a signed-in console: Fairness signals says flags are advice; the demo world's planted ring shows as six ring
 * flags, each saying why; a recompute keeps them; a flag's evidence opens and a review is saved.
 */
export async function checkFairnessSection(page: Page, origin: string, width: number): Promise<void> {
  await page.goto(`${origin}/admin/announcements`, { waitUntil: 'networkidle' });
  await openConsoleSection(page, 'Fairness signals');
  await page.getByText(/never an automatic penalty/).waitFor();
  // The demo world plants one ring of six (docs/fairness.md), flagged as soon as the history replay caught up.
  await page.getByLabel('Kind').selectOption('ring');
  expect(await flagsShown(page)).toBe(true);
  const rings = flagsList(page).locator(':scope > li');
  await expect.poll(() => rings.count()).toBe(6);
  await expect
    .poll(() => rings.first().textContent())
    .toMatch(/came from a group of 6 accounts that engage with each other/);
  await expectNoSeriousAxeFindings(page, `fairness rings at ${width}`);
  await page.getByLabel('Kind').selectOption('');
  await page.getByRole('button', { name: 'Recompute now' }).click();
  await page.getByText(/^Recomputed in \d+ ms over \d+ authors?:/).waitFor();
  await expectNoSeriousAxeFindings(page, `fairness recomputed at ${width}`);
  await page.getByLabel('Kind').selectOption('ring');
  await expect.poll(() => rings.count()).toBe(6);
  const first = flagsList(page).locator(':scope > li').first();
  await first.getByText('Evidence', { exact: true }).click();
  await first.locator('dl').first().waitFor();
  const note = `Dismissed in the browser test at ${width} px.`;
  await first.getByRole('textbox').fill(note);
  await first.getByRole('button', { name: 'Save review' }).click();
  await first.getByText('Review saved.').waitFor();
  await expect.poll(() => first.locator('blockquote').textContent()).toContain(note);
  await expectNoSeriousAxeFindings(page, `fairness reviewed at ${width}`);
}

/** Saves `admin-fairness-<width>.png`: the flags (or the empty state) after a recompute. */
export async function screenshotFairnessSection(page: Page, origin: string, width: number, dir: string) {
  await page.goto(`${origin}/admin/fairness`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Fairness signals', level: 1 }).waitFor();
  await flagsShown(page);
  await page.screenshot({ path: path.join(dir, `admin-fairness-${width}.png`), fullPage: true });
}
