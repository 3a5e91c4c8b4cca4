import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRulesSection, screenshotRulesSection } from './admin/rules-steps';
import { signInToConsole } from './support/admin-console';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const shots = path.resolve(import.meta.dirname, '../docs/screenshots');

describe.skipIf(!hasChromium)('the console’s Programme rules in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (width: number) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    const page = await context.newPage();
    await signInToConsole(page, server.origin);
    return { context, page };
  };

  it.each([1280, 375])(
    'at %i px: saves a daily limit that How to earn shows, diffs it, restores it',
    async (width) => {
      const { context, page } = await signedIn(width);
      const errors = watchPageErrors(page);
      try {
        await checkRulesSection(page, server.origin, width);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    // Four axe checks, two saves and the public page, on a shared 2-core machine.
    240_000,
  );

  it('takes screenshots of the form and a diff at four widths', async () => {
    const { context, page } = await signedIn(1280);
    try {
      for (const width of [375, 768, 1280, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotRulesSection(page, server.origin, width, shots);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
