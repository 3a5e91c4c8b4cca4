import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoSeriousAxeFindings } from '../support/admin-console';

/** Opens the Programme rules section from the console's navigation and waits for the form. */
async function openRules(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/announcements`, { waitUntil: 'networkidle' });
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('link', { name: 'Programme rules' })
    .click();
  await page.getByRole('heading', { name: 'Programme rules', level: 1 }).waitFor();
  await page.getByLabel('Daily limit').waitFor();
  await page
    .getByText(/^\d+ \/ \d+ characters$/)
    .first()
    .waitFor();
}

/** Sets the daily limit, waits for the preview to list the change, saves through the confirmation. */
async function saveDailyLimit(page: Page, from: number, to: number): Promise<number> {
  await page.getByLabel('Daily limit').fill(String(to));
  // The preview of this very edit: the daily limit from the rules in force to the new value.
  await page
    .getByRole('list', { name: 'Changes against the rules in force' })
    .filter({ hasText: new RegExp(`Daily limit[^0-9]*\\b${from}\\b[^0-9]*\\b${to}\\b`) })
    .waitFor();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the programme rules?' });
  expect(await dialog.textContent()).toMatch(/Mana that is already final is not rewritten/);
  await dialog.getByRole('button', { name: 'Save new version' }).click();
  const saved = page.getByText(/^Saved as version \d+: it is in force now\.$/);
  await saved.waitFor();
  return Number(/version (\d+)/.exec((await saved.textContent()) ?? '')?.[1]);
}

/** How to earn Mana on the public page, at its "Earning Mana" step, in a fresh browser context (no HTTP cache). */
async function publicDailyLimitText(page: Page, origin: string, width: number): Promise<string> {
  const browser = page.context().browser();
  if (!browser) throw new Error('the console page has no browser to open the public page in');
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  try {
    const main = await context.newPage();
    await main.goto(origin, { waitUntil: 'networkidle' });
    if (width < 1330) {
      await main.getByRole('button', { name: 'Menu', exact: true }).click();
      await main
        .getByRole('dialog', { name: 'Menu' })
        .getByRole('button', { name: 'How to Participate' })
        .click();
    } else {
      await main
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'How to Participate' })
        .click();
    }
    const modal = main.getByRole('dialog', { name: 'How to earn Mana' });
    await modal.getByRole('button', { name: 'Step 3: Earning Mana' }).click();
    const paragraph = modal.getByText(/^Your first \d+ tracked posts of each UTC day earn Mana/);
    await paragraph.waitFor();
    return (await paragraph.textContent()) ?? '';
  } finally {
    await context.close();
  }
}

/**
 * On a signed-in console page: the operator raises the daily limit, sees the preview (the change, the network
 * query against its limit), saves a new version, finds its diff in the versions, and How to earn Mana on the
 * public page says the new limit; then the old limit is saved back, so the world is left as found.
 */
export async function checkRulesSection(page: Page, origin: string, width: number): Promise<void> {
  await openRules(page, origin);
  await expectNoSeriousAxeFindings(page, `rules at ${width} px`);
  const before = Number(await page.getByLabel('Daily limit').inputValue());
  expect(before).toBeGreaterThanOrEqual(1);
  const raised = before + 2;

  // A value the rules refuse: the server's problem shows by the field.
  await page.getByLabel('Daily limit').fill('0');
  await page.locator('input[name="dailyLimit"][aria-invalid="true"]').waitFor();
  await expectNoSeriousAxeFindings(page, `rules with a problem at ${width} px`);

  const version = await saveDailyLimit(page, before, raised);
  await expectNoSeriousAxeFindings(page, `rules saved at ${width} px`);
  expect(await publicDailyLimitText(page, origin, width)).toMatch(`Your first ${raised} tracked posts`);

  const versions = page.getByRole('list', { name: 'Versions of the rules, newest first' });
  await versions.getByRole('link', { name: `Changes in version ${version}` }).click();
  await page.getByRole('heading', { name: `Version ${version} of the rules` }).waitFor();
  const diff = page.getByRole('list', { name: `Changes from version ${version - 1} to ${version}` });
  expect(await diff.textContent()).toMatch(new RegExp(`Daily limit.*${before}.*→.*${raised}`));
  await expectNoSeriousAxeFindings(page, `rules diff at ${width} px`);

  await page.getByRole('link', { name: '← Programme rules' }).click();
  await page.getByLabel('Daily limit').waitFor();
  await page
    .getByText(/^\d+ \/ \d+ characters$/)
    .first()
    .waitFor();
  const restored = await saveDailyLimit(page, raised, before);
  expect(restored).toBe(version + 1);
}

/**
 * Screenshots: the form with a pending edit previewed (`admin-rules-<width>.png`), and the newest version's
 * diff (`admin-rules-diff-<width>.png`). The edit is never saved.
 */
export async function screenshotRulesSection(
  page: Page,
  origin: string,
  width: number,
  dir: string,
): Promise<void> {
  await openRules(page, origin);
  const limit = Number(await page.getByLabel('Daily limit').inputValue());
  await page.getByLabel('Daily limit').fill(String(limit + 1));
  await page.getByRole('list', { name: 'Changes against the rules in force' }).waitFor();
  await page.getByRole('list', { name: 'Versions of the rules, newest first' }).waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `admin-rules-${width}.png`), fullPage: true });
  await page
    .getByRole('list', { name: 'Versions of the rules, newest first' })
    .getByRole('link')
    .first()
    .click();
  await page.getByRole('heading', { name: /^Version \d+ of the rules$/ }).waitFor();
  await page
    .getByRole('list', { name: /^Changes from version/ })
    .or(page.getByText(/^No field changed|^The first version/))
    .first()
    .waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `admin-rules-diff-${width}.png`), fullPage: true });
}
