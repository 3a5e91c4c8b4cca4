import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExportSection, screenshotExportSection } from './admin/export-steps';
import { checkFairnessSection, screenshotFairnessSection } from './admin/fairness-steps';
import { checkWorkerSection, screenshotWorkerSection } from './admin/worker-steps';
import { signInToConsole } from './support/admin-console';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

// Each walk runs several axe checks and waits on a shared demo server: far past the 60 s default on a busy machine.
const shots = path.resolve(import.meta.dirname, '../docs/screenshots');

/** The console's Fairness signals, Worker and network, and Rewards export sections, on one demo server. */
describe.skipIf(!hasChromium)('the console’s fairness, worker and export sections in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(width: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    const page = await context.newPage();
    await signInToConsole(page, server.origin);
    // Watched from here: before sign-in the console's session check answers 401 by design.
    const errors = watchPageErrors(page);
    return { context, page, errors };
  }

  it.each([1280, 375])(
    'at %i px: fairness, worker and export as an operator uses them',
    async (width) => {
      const { context, page, errors } = await signedIn(width);
      try {
        await checkFairnessSection(page, server.origin, width);
        await checkWorkerSection(page, server.origin, width);
        await checkExportSection(page, server.origin, width);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    240_000,
  );

  it('takes screenshots of the three sections at four widths', async () => {
    const { context, page } = await signedIn(1280);
    try {
      for (const width of [375, 768, 1280, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotFairnessSection(page, server.origin, width, shots);
        await screenshotWorkerSection(page, server.origin, width, shots);
        await screenshotExportSection(page, server.origin, width, shots);
      }
    } finally {
      await context.close();
    }
  }, 240_000);
});
