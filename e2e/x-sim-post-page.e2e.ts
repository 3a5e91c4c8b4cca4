import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { beforeAll, describe, expect, it } from 'vitest';
import { postsResponseSchema, type TrackedPost } from '@manaboard/contract';
import { hasChromium } from './support/chromium';
import { useBrowserFile } from './support/harness';
import { watchPageErrors } from './support/page-errors';

const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');

describe.skipIf(!hasChromium)('a post link in simulation mode (demo world)', () => {
  // One server and one Chromium for the file, started side by side (support/harness.ts).
  const file = useBrowserFile();
  let post: TrackedPost;

  beforeAll(async () => {
    await fs.mkdir(screenshots, { recursive: true });
    // The demo replay fills the posts within seconds; wait for the first one.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const posts = postsResponseSchema.parse(
        await (await fetch(`${file.server.origin}/api/posts`)).json(),
      ).data;
      if (posts[0]) {
        post = posts[0];
        break;
      }
      if (Date.now() > deadline) throw new Error('no tracked post appeared');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  it.each([375, 1280])(
    'opens the simulation’s page for the post at %i px, readable and accessible',
    async (width) => {
      expect(post.url.startsWith(`${file.server.origin}/x-sim/${post.authorName}/status/`)).toBe(true);
      const context = await file.browser.newContext({ viewport: { width, height: 800 } });
      // The simulated X's pages name no icon, so Chromium asks for /favicon.ico, which 404s and would be reported
      // as a console error (as in linking.e2e.ts).
      await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      try {
        const response = await page.goto(post.url);
        expect(response?.status()).toBe(200);
        await expect(page.title()).resolves.toContain(`(@${post.authorName}) on the simulated X`);
        const heading = page.getByRole('heading', { level: 1 });
        expect(await heading.textContent()).toContain(`@${post.authorName}`);
        const text = (await page.locator('.text').textContent()) ?? '';
        expect(text.replace(/\s+/g, ' ').trim()).toBe(post.content.replace(/\s+/g, ' ').trim());
        expect(await page.getByRole('definition').count()).toBe(4);
        // The stylesheet applied under the app's CSP: the card has its dark background, not the browser's default.
        const background = await page.locator('main').evaluate((el) => getComputedStyle(el).backgroundColor);
        expect(background).toBe('rgb(15, 20, 25)');
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(bad.map((v) => v.id)).toEqual([]);
        await page.screenshot({ path: path.join(screenshots, `x-sim-post-${width}.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
