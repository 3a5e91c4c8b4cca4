import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_ADMIN, expectNoSeriousAxeFindings } from '../support/admin-console';

const REASON = 'Engagement came from a ring of accounts liking each other';
const REQUALIFY = 'Reviewed again: the engagement is genuine';

/** The handles the public leaderboard `/` shows on its first page (in a fresh tab, as a visitor sees it). */
async function boardHandles(page: Page, origin: string): Promise<string[]> {
  const main = await page.context().newPage();
  try {
    await main.goto(origin);
    const rows = main.getByTestId('rank-row');
    await rows.nth(9).waitFor();
    const handles = await rows.locator('td:nth-child(2) p:first-child').allTextContents();
    return handles.map((h) => h.replace(/^@/, '').trim());
  } finally {
    await main.close();
  }
}

/** A demo author the board shows now (a different one per width, so the two runs do not meet). */
async function demoAuthor(page: Page, origin: string, width: number): Promise<string> {
  const handle = (await boardHandles(page, origin))[width < 768 ? 5 : 6];
  if (!handle) throw new Error('the demo leaderboard has too few authors');
  return handle;
}

/** Waits (the server drops its cached pages and reruns totals after the change) until the board does or does not list the author. */
async function expectOnBoard(page: Page, origin: string, handle: string, listed: boolean): Promise<void> {
  await expect
    .poll(async () => (await boardHandles(page, origin)).includes(handle), {
      timeout: 20_000,
      interval: 1000,
    })
    .toBe(listed);
}

/** Search results are a table from 1024 px and cards below: whichever is shown. */
const results = (page: Page, q: string): Locator =>
  page
    .getByRole('table', { name: `Members matching “${q}”` })
    .or(page.getByRole('list', { name: `Members matching “${q}”` }));

async function openSection(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('link', { name: 'Members' })
    .click();
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
}

async function search(page: Page, q: string): Promise<void> {
  await page.getByLabel('Handle or name').fill(q);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

/** Confirms the dialog the Disqualify / Requalify button opened, and waits for the new standing. */
async function changeStanding(
  page: Page,
  handle: string,
  disqualify: boolean,
  reason: string,
): Promise<void> {
  const standing = page.getByRole('region', { name: 'Standing' });
  const verb = disqualify ? 'Disqualify' : 'Requalify';
  await standing.getByLabel(/^Reason/).fill(reason);
  await standing.getByRole('button', { name: `${verb} @${handle}` }).click();
  const dialog = page.getByRole('dialog', { name: `${verb} @${handle}?` });
  if (disqualify) expect(await dialog.textContent()).toContain(`“${reason}”`);
  await dialog.getByRole('button', { name: verb, exact: true }).click();
  await standing.getByText(`@${handle} is ${disqualify ? 'disqualified' : 'requalified'}.`).waitFor();
  await standing
    .getByRole('button', { name: `${disqualify ? 'Requalify' : 'Disqualify'} @${handle}` })
    .waitFor();
}

/**
 * The Members section as an operator walks it, on a signed-in console: search (kept in the URL: back and
 * forward), a member's page, disqualify a demo author with a reason (the public board drops them), and requalify
 * them so the world is left as found.
 */
export async function checkMembersSection(page: Page, origin: string, width: number): Promise<void> {
  const handle = await demoAuthor(page, origin, width);
  await openSection(page);
  await expectNoSeriousAxeFindings(page, `members (start) ${width}`);

  await search(page, handle);
  await results(page, handle).waitFor();
  expect(page.url()).toBe(`${origin}/admin/members?q=${encodeURIComponent(handle)}`);
  const hit = results(page, handle).getByRole('link', { name: `@${handle}`, exact: true });
  await hit.waitFor();
  await expectNoSeriousAxeFindings(page, `members (results) ${width}`);
  await search(page, 'zz-nobody-zz');
  await page.getByText('No author or member matches “zz-nobody-zz”.').waitFor();
  await page.goBack();
  await hit.waitFor();
  expect(await page.getByLabel('Handle or name').inputValue()).toBe(handle);

  await hit.click();
  await page.getByRole('heading', { name: `@${handle}`, level: 1 }).waitFor();
  expect(await page.getByRole('region', { name: 'Mana' }).textContent()).toMatch(
    /All-time total [\d,]+ Mana/,
  );
  await page.getByRole('region', { name: 'Referrals' }).waitFor();
  await page.getByRole('region', { name: 'History' }).waitFor();
  await expectNoSeriousAxeFindings(page, `member page ${width}`);

  await changeStanding(page, handle, true, REASON);
  const standing = page.getByRole('region', { name: 'Standing' });
  await standing.getByText(REASON).waitFor();
  expect(await standing.textContent()).toContain(`Disqualified by admin:@${DEMO_ADMIN}`);
  await page.getByRole('region', { name: 'History' }).getByText('author.disqualify').first().waitFor();
  await expectNoSeriousAxeFindings(page, `member disqualified ${width}`);
  await expectOnBoard(page, origin, handle, false);

  await changeStanding(page, handle, false, REQUALIFY);
  await expectOnBoard(page, origin, handle, true);
}

/** Screenshots of the search (`admin-members-<width>.png`) and a member's page (`admin-member-<width>.png`). */
export async function screenshotMembersSection(page: Page, origin: string, width: number, dir: string) {
  const handle = await demoAuthor(page, origin, 1280);
  const q = handle.slice(0, 2);
  await page.goto(`${origin}/admin/members?q=${encodeURIComponent(q)}`, { waitUntil: 'networkidle' });
  await results(page, q).waitFor();
  await page.screenshot({ path: path.join(dir, `admin-members-${width}.png`), fullPage: true });
  await results(page, q)
    .getByRole('link', { name: `@${handle}`, exact: true })
    .click();
  await page.getByRole('heading', { name: `@${handle}`, level: 1 }).waitFor();
  await page.screenshot({ path: path.join(dir, `admin-member-${width}.png`), fullPage: true });
}
