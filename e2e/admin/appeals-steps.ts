import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoSeriousAxeFindings } from '../support/admin-console';

/** The appeals shown, or the empty state when there are none (the demo world starts with none). */
const listOrEmpty = (page: Page, which: 'Open' | 'All') =>
  page
    .getByRole('list', { name: `${which} appeals, newest first` })
    .or(
      page.getByText(
        which === 'Open' ? 'No open appeals: none is waiting for an answer.' : 'No member has appealed yet.',
      ),
    );

/** The Appeals section on a signed-in console: open appeals first, then all (`?status=all`), and back. */
export async function checkAppealsSection(page: Page, origin: string, width: number): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('link', { name: 'Appeals' })
    .click();
  await page.getByRole('heading', { name: 'Appeals', level: 1 }).waitFor();
  await listOrEmpty(page, 'Open').waitFor();
  expect(await page.getByRole('button', { name: 'Open', exact: true }).getAttribute('aria-pressed')).toBe(
    'true',
  );
  await expectNoSeriousAxeFindings(page, `appeals (open) ${width}`);

  await page.getByRole('button', { name: 'All', exact: true }).click();
  await listOrEmpty(page, 'All').waitFor();
  expect(page.url()).toBe(`${origin}/admin/appeals?status=all`);
  await expectNoSeriousAxeFindings(page, `appeals (all) ${width}`);
  await page.goBack();
  await listOrEmpty(page, 'Open').waitFor();
}

/** A screenshot of the open appeals (`admin-appeals-<width>.png`). */
export async function screenshotAppealsSection(page: Page, origin: string, width: number, dir: string) {
  await page.goto(`${origin}/admin/appeals`, { waitUntil: 'networkidle' });
  await listOrEmpty(page, 'Open').waitFor();
  await page.screenshot({ path: path.join(dir, `admin-appeals-${width}.png`), fullPage: true });
}
