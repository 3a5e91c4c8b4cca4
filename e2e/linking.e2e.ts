import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { useBrowserFile } from './support/harness';
import { browserIdOf, earnMoreMana, freshLinkingPage, linkFromCard, refereeCountOf } from './support/linking';
import { watchPageErrors } from './support/page-errors';
import { startServer } from './support/server';

const widths = [375, 1280] as const;
const heights: Record<(typeof widths)[number], number> = { 375: 812, 1280: 900 };
// Kept as test artifacts; the ones in docs/screenshots are copied from here when the look changes.
const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');

describe.skipIf(!hasChromium)('linking an account and referrals in the browser', () => {
  // One server and one Chromium for the file, started side by side (support/harness.ts).
  // A fresh demo, not the replayed template: members link while the worker replays its history (beforeAll).
  const file = useBrowserFile(() => startServer());

  beforeAll(async () => {
    // With the demo: members link while the worker replays the demo history (the simulated X's OAuth runs on
    // the wall clock, so a fast-forwarded world cannot expire a code), as on a first `npm start`.
    await fs.mkdir(screenshots, { recursive: true });
  });

  const freshBrowser = (width: (typeof widths)[number]) =>
    freshLinkingPage(file.browser, { width, height: heights[width] });
  const refereeCount = (browserId: string) => refereeCountOf(file.server.origin, browserId);

  it.each(widths)(
    'links from the card through the simulated sign-in page and shows the handle (%i px)',
    async (width) => {
      const { context, page, errors } = await freshBrowser(width);
      try {
        await page.goto(file.server.origin, { waitUntil: 'networkidle' });
        await earnMoreMana(page).waitFor();
        await page.screenshot({ path: path.join(screenshots, `card-unlinked-${width}.png`) });

        const handle = `mana_fan_${width}`;
        await linkFromCard(page, handle, {
          onAuthReturn: async (returning) => {
            // The image fades in over 1 s; the screen stays at least 1.5 s once the account is confirmed.
            await returning.waitForTimeout(1000);
            await returning.screenshot({ path: path.join(screenshots, `auth-return-${width}.png`) });
          },
        });
        const card = page.getByRole('region', { name: 'Mana card' });
        await card.getByText(`@${handle}`, { exact: true }).waitFor();
        await page.getByRole('banner').getByText(`@${handle}`, { exact: true }).waitFor();
        expect(page.url()).toBe(`${file.server.origin}/`);

        const linkButton = card.getByRole('button', { name: new RegExp(`/r/@${handle}`) });
        await linkButton.waitFor();
        expect(await linkButton.textContent()).toContain(`${new URL(file.server.origin).host}/r/@${handle}`);
        await linkButton.click();
        await card.getByText('Copied', { exact: true }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
          `${file.server.origin}/r/@${handle}`,
        );
        await page.waitForTimeout(2100);
        await page.screenshot({ path: path.join(screenshots, `card-linked-${width}.png`) });

        // Linked from another tab's point of view too: a reload keeps the browser linked.
        await page.reload({ waitUntil: 'networkidle' });
        await card.getByText(`@${handle}`, { exact: true }).waitFor();
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.each(widths)(
    'applies a referral link: /r/@someone, "Referred by someone", link, success banner, count rises (%i px)',
    async (width) => {
      const referrerHandle = `someone_${width}`;
      const referrer = await freshBrowser(width);
      const referee = await freshBrowser(width);
      try {
        await referrer.page.goto(file.server.origin, { waitUntil: 'networkidle' });
        await linkFromCard(referrer.page, referrerHandle);
        const referrerId = await browserIdOf(referrer.page);
        expect(await refereeCount(referrerId)).toBe(0);

        await referee.page.goto(`${file.server.origin}/r/@${referrerHandle}`, { waitUntil: 'networkidle' });
        const cancel = referee.page.getByRole('button', {
          name: new RegExp(`Referred by ${referrerHandle}`),
        });
        await cancel.waitFor();
        expect(await cancel.textContent()).toContain(`Referred by ${referrerHandle}`);
        await referee.page.screenshot({ path: path.join(screenshots, `card-referred-${width}.png`) });

        await linkFromCard(referee.page, `referee_${width}`);
        await referee.page
          .getByText(`Referral applied! You were referred by @${referrerHandle}.`)
          .waitFor({ timeout: 4000 });
        expect(new URL(referee.page.url()).search).toBe('');
        const apply = referee.page.getByRole('button', { name: `Referred by ${referrerHandle}` });
        await apply.waitFor();
        expect(await apply.isDisabled()).toBe(true);
        expect(await refereeCount(referrerId)).toBe(1);
        // The banner goes after 5 s.
        await referee.page.getByText('Referral applied!').waitFor({ state: 'detached', timeout: 7000 });
        expect(referrer.errors).toEqual([]);
        expect(referee.errors).toEqual([]);
      } finally {
        await referrer.context.close();
        await referee.context.close();
      }
    },
  );

  it('says why a referral link was not applied when the server refused the referrer at linking', async () => {
    const { context, page, errors } = await freshBrowser(375);
    try {
      await page.goto(`${file.server.origin}/r/@never_linked`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: /Referred by never_linked/ }).waitFor();
      await linkFromCard(page, 'refused_referee');
      await page
        .getByText(
          'Your account is linked, but the referral was not applied. This referral link is invalid or expired.',
        )
        .waitFor({ timeout: 4000 });
      expect(page.url()).toBe(`${file.server.origin}/`);
      expect(await page.evaluate(() => localStorage.getItem('manaboard.pendingReferrer'))).toBeNull();
      await page.getByRole('button', { name: 'Apply Referral' }).waitFor();
      // The notice goes after 5 s.
      await page.getByText(/referral was not applied/).waitFor({ state: 'detached', timeout: 7000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('ignores a referral link to something that cannot be a handle', async () => {
    const { context, page, errors } = await freshBrowser(375);
    try {
      await page.goto(`${file.server.origin}/r/not%20a%20handle!`, { waitUntil: 'networkidle' });
      await earnMoreMana(page).waitFor();
      expect(await page.getByRole('button', { name: /Referred by/ }).count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('manaboard.pendingReferrer'))).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('cancels a pending referral from the unlinked card', async () => {
    const { context, page, errors } = await freshBrowser(375);
    try {
      await page.goto(`${file.server.origin}/r/@nobody_yet`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: /Referred by nobody_yet/ }).click();
      await page.waitForURL(`${file.server.origin}/`);
      expect(await page.getByRole('button', { name: /Referred by/ }).count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('manaboard.pendingReferrer'))).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /**
   * Types `typed` into Get Referred on `page`, applies, and expects `message`: shown on the card, the input marked
   * invalid and described by it; then pressing Apply while it shows only dismisses it.
   */
  async function expectApplyError(page: Page, typed: string, message: string) {
    const input = page.getByLabel('Get referred');
    const apply = page.getByRole('button', { name: 'Apply Referral' });
    await input.fill(typed);
    await apply.click();
    const shown = page.getByRole('region', { name: 'Mana card' }).getByText(message, { exact: true });
    await shown.waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toBe(await shown.getAttribute('id'));
    await apply.click();
    await shown.waitFor({ state: 'detached' });
    expect(await input.getAttribute('aria-invalid')).toBeNull();
  }

  it.each(widths)(
    'shows each apply error, and unlink returns to the unlinked card (%i px)',
    async (width) => {
      const { context, page, errors } = await freshBrowser(width);
      const others = await freshBrowser(width);
      try {
        // Two other members: one who linked and unlinked again (an unlinked handle), one still linked.
        const unlinked = `gone_${width}`;
        const referrer = `mentor_${width}`;
        await others.page.goto(file.server.origin, { waitUntil: 'networkidle' });
        await linkFromCard(others.page, unlinked);
        await others.page.getByRole('button', { name: 'Unlink' }).click();
        await earnMoreMana(others.page).waitFor();
        await linkFromCard(others.page, referrer);

        const handle = `errors_${width}`;
        await page.goto(file.server.origin, { waitUntil: 'networkidle' });
        await linkFromCard(page, handle);
        // A second tab of the same browser, opened before the apply below: its card still offers Apply.
        const secondTab = await context.newPage();
        const secondTabErrors = watchPageErrors(secondTab);
        await secondTab.goto(file.server.origin, { waitUntil: 'networkidle' });
        await secondTab.getByRole('button', { name: 'Apply Referral' }).waitFor();

        await expectApplyError(page, '', 'Please enter a referrer handle.');
        await expectApplyError(page, `@${handle.toUpperCase()}`, 'You cannot refer yourself.');
        await expectApplyError(page, 'no_such_member', 'This referral link is invalid or expired.');
        await expectApplyError(page, `@${unlinked}`, 'This referral link is invalid or expired.');
        await expectApplyError(page, '@ManaboardHQ', 'This handle is already reserved by another user.');

        // Applied once here, the second tab's apply is the second one: ALREADY_REFERRED.
        await page.getByLabel('Get referred').fill(`@${referrer}`);
        await page.getByRole('button', { name: 'Apply Referral' }).click();
        await page.getByText(`Referral applied: @${referrer} is now your referrer.`).waitFor();
        await page.getByRole('button', { name: `Referred by ${referrer}` }).waitFor();
        await expectApplyError(secondTab, referrer, "You've already been referred by someone else.");
        await secondTab.close();

        const linkedId = await browserIdOf(page);
        await page.getByRole('button', { name: 'Unlink' }).click();
        await earnMoreMana(page).waitFor();
        expect(await page.getByRole('button', { name: 'Link account' }).isVisible()).toBe(true);
        // The old id is forgotten: from now on this is a new, unlinked browser.
        const idNow = await page.evaluate(() => localStorage.getItem('manaboard.userId'));
        expect(idNow).not.toBe(linkedId);
        // Chromium logs every 4xx answer as a console error; the refused applies above are expected ones.
        const refusedApply = /Failed to load resource: .* 400 \(Bad Request\)/;
        expect(errors.filter((error) => !refusedApply.test(error))).toEqual([]);
        expect(errors.filter((error) => refusedApply.test(error))).toHaveLength(4);
        const secondApply = /Failed to load resource: .* 409 \(Conflict\)/;
        expect(secondTabErrors.filter((error) => !secondApply.test(error))).toEqual([]);
        expect(secondTabErrors.filter((error) => secondApply.test(error))).toHaveLength(1);
        expect(others.errors).toEqual([]);
      } finally {
        await context.close();
        await others.context.close();
      }
    },
    // Three sign-ins, an unlink and seven applies: about 40 s locally, so more room than the default 60 s.
    120_000,
  );
});
