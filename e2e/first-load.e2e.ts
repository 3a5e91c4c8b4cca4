import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { boardHasRows } from './support/demo';
import { useBrowserFile } from './support/harness';
import { watchPageErrors } from './support/page-errors';

// The main page's first load (docs/architecture.md, "The first load"): one paint from the preloaded answers.
describe.skipIf(!hasChromium)("the main page's first load in the browser", () => {
  // One server and one Chromium for the file, started side by side (support/harness.ts).
  const file = useBrowserFile();

  it('paints the first screen once, whole, from the answers index.html preloads', async () => {
    // The board the page preloads has rows before the page loads (the demo fills it after its first totals run).
    await boardHasRows(file.server, '/api/mana?limit=20');
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

// Issue 13: the operator console is a chunk of its own, and the main page's first load must not grow with it. A
// module lives in one chunk whole, so console code that uses a zod kind or a contract schema the main page's
// modules define would put that code in the first load: the console's schemas avoid those (packages/contract
// admin-*.ts), and this checks the built first load for them. `npm test` builds the web app before the tests.
describe("the main page's first load without the console", () => {
  const dist = new URL('../apps/web/dist/', import.meta.url);

  it('carries none of the operator console: its screens, its schemas and the zod kinds only it uses', async () => {
    const html = await readFile(new URL('index.html', dist), 'utf8');
    const files = [
      ...html.matchAll(/<script[^>]*\bsrc="\/([^"]+\.js)"/g),
      ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
    ].map((match) => match[1] as string);
    expect(files.length).toBeGreaterThan(0);
    const firstLoad = (await Promise.all(files.map((file) => readFile(new URL(file, dist), 'utf8')))).join(
      '\n',
    );
    // The main page's own code and zod kinds are there (the check reads the right files)...
    expect(firstLoad).toContain('ZodMiniObject');
    expect(firstLoad).toContain('Leaderboard');
    // ...and nothing of the console: its navigation, its request schemas, the zod kinds only it would bring.
    for (const consoleOnly of [
      'Console sections',
      'Operator console',
      'id must be a UUID',
      'score must be at most 1',
      'ZodMiniRecord',
      'ZodMiniUUID',
      'ZodMiniUnion',
      'ZodMiniPipe',
      'ZodMiniTransform',
      '$ZodCheckLessThan',
    ])
      expect(firstLoad, consoleOnly).not.toContain(consoleOnly);
  });
});
