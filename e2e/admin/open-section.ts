import type { Page } from 'playwright-core';

/** Opens a console section from the navigation, as an operator does, and waits for its heading. */
export async function openConsoleSection(page: Page, label: string, heading = label): Promise<void> {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: label }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}
