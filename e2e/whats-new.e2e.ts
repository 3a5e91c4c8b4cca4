import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { useBrowserFile } from './support/harness';
import { watchPageErrors } from './support/page-errors';

const widths = [375, 768, 1280, 1600] as const;
const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');

describe.skipIf(!hasChromium)("What's New in the browser", () => {
  // One server and one Chromium for the file, started side by side (support/harness.ts).
  const file = useBrowserFile();

  beforeAll(async () => {
    await fs.mkdir(screenshots, { recursive: true });
  });

  it.each(widths)(
    'opens from the page at %i px, shows the demo announcements and closes on Esc',
    async (width) => {
      const page = await file.browser.newPage({ viewport: { width, height: 900 } });
      const errors = watchPageErrors(page);
      try {
        await page.goto(file.server.origin, { waitUntil: 'networkidle' });
        // Below 1330 px the top bar's links live in the slide-in menu (SPEC §2).
        if (width < 1330) {
          await page.getByRole('button', { name: 'Menu', exact: true }).click();
          await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Updates' }).click();
        } else {
          await page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('button', { name: 'Updates' })
            .click();
        }
        const dialog = page.getByRole('dialog', { name: "What's New" });
        await dialog.waitFor();
        await dialog.getByText('Refer a friend, earn 50 Mana').waitFor();
        const titles = await dialog.getByRole('heading', { level: 3 }).allTextContents();
        expect(titles).toEqual([
          'Refer a friend, earn 50 Mana',
          'Weekly ranks reset every Monday',
          'Welcome to Manaboard',
        ]);
        expect(await dialog.getByText('Season 2 rewards (draft)').count()).toBe(0);
        // Long-form date, as SPEC §2 asks.
        expect(await dialog.textContent()).toMatch(
          /(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/,
        );
        expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
        await page.waitForTimeout(350);
        await page.screenshot({ path: path.join(screenshots, `whats-new-${width}.png`) });

        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it('opens through window.openUpdatesModal and closes on a backdrop click', async () => {
    const page = await file.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    try {
      await page.goto(`${file.server.origin}/r/@someone`, { waitUntil: 'networkidle' });
      await page.waitForFunction(
        () => typeof (window as { openUpdatesModal?: unknown }).openUpdatesModal === 'function',
      );
      await page.evaluate(() => (window as unknown as { openUpdatesModal: () => void }).openUpdatesModal());
      const dialog = page.getByRole('dialog', { name: "What's New" });
      await dialog.getByRole('heading', { name: 'Welcome to Manaboard' }).waitFor();
      await page.mouse.click(5, 5);
      await dialog.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('serves the app on every SPA route with no console errors', async () => {
    for (const route of ['/', '/r/@someone', '/linked?error=access_denied', '/auth/callback']) {
      const page = await file.browser.newPage();
      const errors = watchPageErrors(page);
      try {
        const response = await page.goto(`${file.server.origin}${route}`, { waitUntil: 'networkidle' });
        expect(response?.status()).toBe(200);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});
