import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

// The main page's first load (docs/architecture.md, "The first load"): one paint from the preloaded answers.
describe.skipIf(!hasChromium)("the main page's first load in the browser", () => {
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

  it('paints the first screen once, whole, from the answers index.html preloads', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 900 } });
    try {
      // Records every loading state the page ever shows, from the first byte on.
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { loadingStatesSeen: string[] }).loadingStatesSeen = seen;
        new MutationObserver(() => {
          if (document.querySelector('img[alt="Loading leaderboard"]')) seen.push('leaderboard');
          if (document.body?.textContent?.includes('Loading your card…')) seen.push('card');
        }).observe(document, { childList: true, subtree: true });
      });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      const calls: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (/^\/(api|me|referrals|csrf-token)\b/.test(url.pathname))
          calls.push(`${url.pathname}${url.search}`);
      });
      await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
      await page.getByRole('table').getByRole('row').nth(1).waitFor();

      expect(
        await page.evaluate(() => (window as unknown as { loadingStatesSeen: string[] }).loadingStatesSeen),
      ).toEqual([]);
      // The first load calls exactly what the served index.html preloads, once each: the app's own calls took
      // the preloaded answers (a call the preload did not serve would be a second request, or another URL). A
      // first visit has no id yet, so it is not connected without asking.
      const html = await (await fetch(`${server.origin}/`)).text();
      const preloaded = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch"/g)].map((m) => m[1]);
      expect(preloaded.length).toBeGreaterThan(0);
      expect([...calls].sort()).toEqual([...preloaded].sort());
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
