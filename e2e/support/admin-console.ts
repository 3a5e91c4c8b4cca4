import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { settled } from './main-page';

/** The demo world's admin (README): its official account, signed in on the simulated X's page. */
export const DEMO_ADMIN = 'ManaboardHQ';

/**
 * Fails with every serious or critical axe finding on the page, each named with `where` it was seen. Checked once
 * the fades are over: a dialog still fading in is seen by axe at part of its opacity, as text of too low a contrast
 * (CI saw it on the confirmations of a loaded machine).
 */
export async function expectNoSeriousAxeFindings(page: Page, where: string): Promise<void> {
  await settled(page);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

/** Signs in to the console the way an operator does: the button, the simulated X's page, back at /admin. */
export async function signInToConsole(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Sign in with X' }).click();
  await page.waitForURL(/\/x-sim\//);
  await page.getByLabel('Handle').fill(DEMO_ADMIN);
  await page.getByRole('button', { name: 'Authorize app' }).click();
  await page.waitForURL(/\/admin\/announcements$/);
  await page.getByRole('heading', { name: 'Announcements', level: 1 }).waitFor();
}
