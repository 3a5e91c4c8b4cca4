import { describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { useBrowserFile } from './support/harness';
import { watchPageErrors } from './support/page-errors';

// The main page's first load (docs/architecture.md, "The first load"): one paint from the preloaded answers.
describe.skipIf(!hasChromium)("the main page's first load in the browser", () => {
  // One server and one Chromium for the file, started side by side (support/harness.ts).
  const file = useBrowserFile();

  it('paints the first screen once, whole, from the answers index.html preloads', async () => {
    const context = await file.browser.newContext({ viewport: { width: 375, height: 900 } });
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
      await page.goto(`${file.server.origin}/`, { waitUntil: 'networkidle' });
      await page.getByRole('table').getByRole('row').nth(1).waitFor();

      expect(
        await page.evaluate(() => (window as unknown as { loadingStatesSeen: string[] }).loadingStatesSeen),
      ).toEqual([]);
      // The first load calls exactly what the served index.html preloads, once each: the app's own calls took
      // the preloaded answers (a call the preload did not serve would be a second request, or another URL). A
      // first visit has no id yet, so it is not connected without asking.
      const html = await (await fetch(`${file.server.origin}/`)).text();
      const preloaded = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch"/g)].map((m) => m[1]);
      expect(preloaded.length).toBeGreaterThan(0);
      expect([...calls].sort()).toEqual([...preloaded].sort());
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
