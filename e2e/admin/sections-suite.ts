import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../support/admin-console';
import { launchChromium } from '../support/chromium';
import { watchPageErrors } from '../support/page-errors';
import { startServer, type RunningServer } from '../support/server';

const shots = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** One console section's browser steps (e2e/admin/*-steps.ts): the walk, and its screenshots at one width. */
export type ConsoleSection = {
  name: string;
  check: (page: Page, origin: string, width: number) => Promise<void>;
  screenshot: (page: Page, origin: string, width: number, dir: string) => Promise<void>;
};

/**
 * Registers, in the calling describe block, console sections on one demo server and one Chromium: each section
 * walked as an operator uses it at 1280 px and at a phone width (every step runs the axe check; no page error
 * after sign-in, where the session check's 401 is by design), then screenshots of each at four widths.
 */
export function consoleSectionsSuite(sections: readonly ConsoleSection[]): void {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // The board settled and the fairness signals computed: the demo flags its planted ring once it caught up.
    [server, browser] = await Promise.all([startServer({}, [], { demoCaughtUp: true }), launchChromium()]);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(width: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
    // The simulated X's sign-in page names no icon, so Chromium asks for /favicon.ico (as in linking.e2e.ts).
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    const page = await context.newPage();
    await signInToConsole(page, server.origin);
    return { context, page, errors: watchPageErrors(page) };
  }

  describe.each([1280, 375])('at %i px', (width) => {
    it.each(sections.map((s) => [s.name, s] as const))(
      '%s, as an operator uses it',
      async (_name, section) => {
        const { context, page, errors } = await signedIn(width);
        try {
          await section.check(page, server.origin, width);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      // Several axe checks and saves on a shared 2-core machine.
      240_000,
    );
  });

  it('takes screenshots of each section at four widths', async () => {
    const { context, page } = await signedIn(1280);
    try {
      for (const width of [375, 768, 1280, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        for (const section of sections) await section.screenshot(page, server.origin, width, shots);
      }
    } finally {
      await context.close();
    }
  }, 300_000);
}
