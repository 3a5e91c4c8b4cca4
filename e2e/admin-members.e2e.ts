import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAppealsSection, screenshotAppealsSection } from './admin/appeals-steps';
import { checkMembersSection, screenshotMembersSection } from './admin/members-steps';
import { signInToConsole } from './support/admin-console';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const shots = path.resolve(import.meta.dirname, '../docs/screenshots');

/** The console's Members and Appeals sections on the demo server (the steps live in e2e/admin/). */
describe.skipIf(!hasChromium)('the console’s Members and Appeals sections in the browser', () => {
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

  it.each([1280, 375])(
    'at %i px: members (search, page, disqualify and requalify) and appeals',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      // The simulated X's sign-in page names no icon, so Chromium asks for /favicon.ico (as in linking.e2e.ts).
      await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      try {
        await signInToConsole(page, server.origin);
        await checkMembersSection(page, server.origin, width);
        await checkAppealsSection(page, server.origin, width);
        // The only error is the console's session check before signing in (401), which shows the sign-in screen.
        expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('takes screenshots of members, a member and appeals at four widths', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    const page = await context.newPage();
    try {
      await signInToConsole(page, server.origin);
      for (const width of [375, 768, 1280, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotMembersSection(page, server.origin, width, shots);
        await screenshotAppealsSection(page, server.origin, width, shots);
      }
    } finally {
      await context.close();
    }
  });
});
