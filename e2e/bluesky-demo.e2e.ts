import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { testEnv } from '../apps/server/src/config/test-env';
import { atprotoNetworkSkipReason } from '../apps/server/src/test/atproto-network';
import { freePort } from '../apps/server/src/test/free-port';
import { withClient } from '../apps/server/src/test/postgres-schema';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';

// The demo refuses to start without Redis (its preflight: the network's AppView needs one), where the other Bluesky
// tests let dev-env run on without it: it runs only when TEST_REDIS_URL names one, as the other Redis groups do.
const skip = !hasChromium || atprotoNetworkSkipReason() !== null || !testEnv.redisUrl;
const repoRoot = path.resolve(import.meta.dirname, '..');
const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');
const widths = [375, 768, 1280, 1600] as const;
const heights: Record<(typeof widths)[number], number> = { 375: 812, 768: 1024, 1280: 900, 1600: 1000 };
const databaseUrl = process.env.TEST_DATABASE_URL ?? '';

const demoSchemas = async () =>
  withClient(databaseUrl, async (c) =>
    Number(
      (await c.query("select count(*) from pg_namespace where nspname like '%mb_demo_bsky_%'")).rows[0].count,
    ),
  );

/**
 * `npm run demo:bluesky`, as a newcomer runs it: the command starts a local AT Protocol network and the app, prints
 * the demo accounts, and the world moves on its own. A member links through the PDS's own pages in Chromium and the
 * board fills and moves; Ctrl+C stops everything and drops the demo's schemas.
 */
describe.skipIf(skip)('npm run demo:bluesky (TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  let demo: ChildProcess;
  let output = '';
  let origin: string;
  let browser: Browser;
  let schemasBefore: number;

  beforeAll(async () => {
    schemasBefore = await demoSchemas();
    const port = await freePort();
    // Its own process group: Ctrl+C in a terminal signals the whole group (npm, tsx, the demo and the app).
    demo = spawn('npm', ['run', 'demo:bluesky'], {
      cwd: repoRoot,
      detached: true,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: testEnv.redisUrl,
        PORT: String(port),
        DEMO_ACTION_SECONDS: '3',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    demo.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // The web build, the network, the accounts and the app: minutes on a busy machine.
    const deadline = Date.now() + 300_000;
    while (!/Manaboard on a local Bluesky network: open /.test(output)) {
      if (demo.exitCode !== null || Date.now() > deadline)
        throw new Error(`the demo did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    origin = /open (http:\/\/localhost:\d+)/.exec(output)?.[1] ?? '';
    expect(origin).toBe(`http://localhost:${port}`);
    browser = await launchChromium();
    await fs.mkdir(screenshots, { recursive: true });
  }, 320_000);

  afterAll(async () => {
    await browser?.close();
    // A run cut short: stop the demo as Ctrl+C would (it drops its schemas), and kill what is left after 30 s.
    if (!demo?.pid || !groupAlive()) return;
    process.kill(-demo.pid, 'SIGINT');
    for (let i = 0; i < 60 && groupAlive(); i++) await new Promise((resolve) => setTimeout(resolve, 500));
    if (groupAlive()) process.kill(-demo.pid, 'SIGKILL');
  });

  /** Whether any process of the demo's group (npm, tsx, the demo, the app) still runs. */
  const groupAlive = () => {
    try {
      process.kill(-(demo.pid ?? 0), 0);
      return true;
    } catch {
      return false;
    }
  };

  const totals = async () => {
    const response = await fetch(`${origin}/api/mana?limit=100`);
    const data = manaResponseSchema.parse(await response.json()).data;
    return data.authors.reduce((sum, a) => sum + a.totalMana, 0);
  };

  it('prints the demo accounts with their passwords', () => {
    for (const handle of ['alice.test', 'bob.test', 'ada.test', 'manaboard.test']) {
      expect(output).toMatch(new RegExp(`^ {4}${handle.replace('.', '\\.')} +password \\S+$`, 'm'));
    }
    expect(output).not.toMatch(/^\s+at /m);
  });

  it('links a newcomer through the PDS sign-in and consent pages', async () => {
    const password = new RegExp(`^ {4}alice\\.test +password (\\S+)$`, 'm').exec(output)?.[1] ?? '';
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    try {
      await page.goto(origin, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: /Link your Bluesky account to earn/ }).click();
      await page.getByLabel('Your Bluesky handle').fill('alice.test');
      await page.getByRole('button', { name: 'Link Bluesky account' }).click();
      await page.waitForURL((url) => url.origin !== origin && !url.hostname.startsWith('127.'));
      await page.locator('input[type="password"]').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.waitForURL((url) => url.origin === origin && url.pathname === '/', { timeout: 30_000 });
      const card = page.getByRole('region', { name: 'Mana card' });
      await card.getByText('@alice.test', { exact: true }).waitFor();
      await expect
        .poll(() => card.getByLabel('Get referred').getAttribute('placeholder'))
        .toBe("Referrer's handle, e.g. @mana-fan.bsky.social");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('fills the board with the members’ Mana and keeps it moving; screenshots at each width', async () => {
    await expect.poll(totals, { timeout: 180_000, interval: 2_000 }).toBeGreaterThan(0);
    const first = await totals();
    await expect.poll(totals, { timeout: 120_000, interval: 2_000 }).toBeGreaterThan(first);
    for (const width of widths) {
      const context = await browser.newContext({ viewport: { width, height: heights[width] } });
      const page: Page = await context.newPage();
      try {
        await page.goto(origin, { waitUntil: 'networkidle' });
        await page.getByTestId('rank-row').first().waitFor({ timeout: 60_000 });
        // The board, below the card: its heading at the top, clear of the sticky header.
        await page.getByRole('heading', { name: 'Mana Leaderboard' }).evaluate((el) => {
          el.scrollIntoView({ block: 'start' });
          window.scrollBy(0, -80);
        });
        await page.waitForTimeout(1500);
        await page.screenshot({ path: path.join(screenshots, `bluesky-demo-${width}.png`) });
      } finally {
        await context.close();
      }
    }
  }, 420_000);

  it('stops on Ctrl+C: the app and the network stop and its schemas are dropped', async () => {
    // npm itself ends on the signal at once; the demo finishes stopping behind it, as in a terminal.
    process.kill(-(demo.pid ?? 0), 'SIGINT');
    await expect
      .poll(() => output, { timeout: 60_000 })
      .toMatch(/^Stopped; the demo schemas are dropped\.$/m);
    await expect.poll(groupAlive, { timeout: 30_000 }).toBe(false);
    expect(await demoSchemas()).toBe(schemasBefore);
    expect(output).not.toMatch(/^\s+at /m);
  }, 90_000);
});
