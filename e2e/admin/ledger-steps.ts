import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoSeriousAxeFindings } from '../support/admin-console';
import { openConsoleSection } from './open-section';

/** The newest closed week's card: the demo's history has weeks long past their refresh and settle windows. */
const closedWeek = (page: Page): Locator =>
  page
    .getByRole('list', { name: 'Weeks, newest first' })
    .getByRole('listitem')
    .filter({ has: page.getByText('closed', { exact: true }) })
    .first();

/**
 * Makes sure the demo's past weeks are closed: asks the worker (its "Run now" in the Worker section) to run the
 * ledger job, then waits on the Ledger section until a closed week shows (the leader picks requests up within
 * seconds; it closes several weeks in one run).
 */
async function waitForClosedWeek(page: Page, origin: string): Promise<Locator> {
  await page.goto(`${origin}/admin/worker`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Run now ledger' }).first().click();
  await page.getByText('Asked the worker to run ledger now; it picks it up within seconds.').waitFor();
  await openConsoleSection(page, 'Ledger');
  for (let attempt = 0; attempt < 60; attempt++) {
    if ((await closedWeek(page).count()) > 0) return closedWeek(page);
    await page.waitForTimeout(1_000);
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Ledger', level: 1 }).waitFor();
  }
  throw new Error('no week closed within a minute of the ledger job');
}

/**
 * On a signed-in console: Ledger lists the weeks, the current one open; a closed week shows its edition, hash and
 * the exact text to post by hand (the demo runs on X: nothing is posted automatically), which names the URL that
 * serves the same bytes; the text copies; a check of the week finds nothing to correct.
 */
export async function checkLedgerSection(page: Page, origin: string, width: number): Promise<void> {
  const week = await waitForClosedWeek(page, origin);
  await expect
    .poll(() =>
      page.getByRole('list', { name: 'Weeks, newest first' }).getByRole('listitem').first().textContent(),
    )
    .toMatch(/open/);
  const name = (await week.getByRole('heading', { level: 2 }).textContent()) ?? '';
  expect(name).toMatch(/^\d{4}-W\d{2}$/);
  const hash =
    (await week
      .getByText(/^sha256:[0-9a-f]{64}$/)
      .first()
      .textContent()) ?? '';
  const text = (await week.getByLabel('Text to post').first().textContent()) ?? '';
  expect(text).toContain(`/api/ledger/${name}/1 ${hash}`);
  expect(text).toMatch(/^Week \d+ of \d{4}: [\d,]+ members? earned [\d,]+ Mana\. Ledger: /);
  await expectNoSeriousAxeFindings(page, `ledger at ${width}`);

  // The edition the console names is the bytes the public route serves, with their hash.
  const served = await fetch(`${origin}/api/ledger/${name}/1`);
  const bytes = Buffer.from(await served.arrayBuffer());
  expect(served.headers.get('x-ledger-sha256')).toBe(hash);
  expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(hash);

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await week.getByRole('button', { name: 'Copy text of edition 1' }).click();
  await week.getByRole('button', { name: 'Copied text of edition 1' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

  await week.getByRole('button', { name: `Check ${name} against the data now` }).click();
  await week
    .getByText(
      /^(The data still give edition \d+ byte for byte: nothing to correct\.|Only records or handles changed since the week closed)/,
    )
    .waitFor();
  await expectNoSeriousAxeFindings(page, `ledger check at ${width}`);
}

/** Saves `admin-ledger-<width>.png`: the weeks, the current one open and the closed ones with their editions. */
export async function screenshotLedgerSection(page: Page, origin: string, width: number, dir: string) {
  await page.goto(`${origin}/admin/ledger`, { waitUntil: 'networkidle' });
  await closedWeek(page).waitFor();
  await closedWeek(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(dir, `admin-ledger-${width}.png`) });
}
