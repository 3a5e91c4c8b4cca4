// Browser figure of the leaderboard issue: time from navigation to the first leaderboard row rendered, in
// Chromium with 4× CPU throttling, as a ratio of the time to first paint of a bare React page served by the same
// server. Medians of several rounds, each in a fresh browser context (cold cache), the two pages alternating.
import fs from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../e2e/support/chromium';
import { buildBareApp } from './lib/bare-app';
import { startBenchServer } from './lib/spawn-server';
import { benchRounds, fmt, median, ratio } from './lib/stats';

const rounds = benchRounds(3);
const CPU_SLOWDOWN = 4;

type Probe = 'first-row' | 'first-paint';

const FIRST_ROW_PROBE = `
  new MutationObserver(function (changes, observer) {
    if (document.querySelector('[data-testid="rank-row"]')) {
      window.firstRowAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** One cold visit: ms from navigation start to the first leaderboard row, or to the first paint. */
async function visit(browser: Browser, url: string, probe: Probe): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    // Stamped by the page itself, on the timeline that starts at navigation (performance.now() = 0). Plain
    // JavaScript text: tsx would wrap a function's inner functions in a helper the page does not have.
    await page.addInitScript({ content: FIRST_ROW_PROBE });
    page.on('pageerror', (error) => console.warn(`page error at ${url}: ${error.message}`));
    await page.goto(url, { waitUntil: 'load' });
    if (probe === 'first-row') {
      await page.waitForFunction(
        () => (window as unknown as { firstRowAt?: number }).firstRowAt !== undefined,
        undefined,
        { timeout: 60_000 },
      );
      return await page.evaluate(() => (window as unknown as { firstRowAt: number }).firstRowAt);
    }
    await page.waitForFunction(() => performance.getEntriesByName('first-paint').length > 0, undefined, {
      timeout: 60_000,
    });
    return await page.evaluate(() => performance.getEntriesByName('first-paint')[0]?.startTime ?? Number.NaN);
  } finally {
    await context.close();
  }
}

/** `npm run bench web-first-row`. */
export async function firstLeaderboardRow(): Promise<void> {
  const bareDist = await buildBareApp('/bench/bare-page/');
  const server = await startBenchServer({ BARE_DIST: bareDist }, 'bench/lib/web-bench-server.ts');
  const browser = await launchChromium();
  try {
    const rows: number[] = [];
    const paints: number[] = [];
    // One unmeasured visit each warms the server (its caches), not the browser (each visit is a new context).
    await visit(browser, `${server.origin}/`, 'first-row');
    await visit(browser, `${server.origin}/bench/bare-page/`, 'first-paint');
    for (let round = 0; round < rounds; round++) {
      rows.push(await visit(browser, `${server.origin}/`, 'first-row'));
      paints.push(await visit(browser, `${server.origin}/bench/bare-page/`, 'first-paint'));
    }
    const row = median(rows);
    const paint = median(paints);
    console.log(
      `web: navigation → first leaderboard row (Chromium, ${CPU_SLOWDOWN}× CPU throttling, cold cache, median of ${rounds}): ` +
        `${fmt(row, 0)} ms = ${fmt(ratio(row, paint))}× the first paint of a bare React page from the same server (${fmt(paint, 0)} ms)`,
    );
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(bareDist, { recursive: true, force: true });
  }
}
