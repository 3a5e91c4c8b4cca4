import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../apps/server/src/test/atproto-network';
import { createScratchSchema, type ScratchSchema } from '../apps/server/src/test/postgres-schema';
import { testEnv } from '../apps/server/src/config/test-env';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const skip = !hasChromium || atprotoNetworkSkipReason() !== null;
const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');
const widths = [375, 768, 1280, 1600] as const;
const heights: Record<(typeof widths)[number], number> = { 375: 812, 768: 1024, 1280: 900, 1600: 1000 };

type Did = `did:${string}:${string}`;

/** A 96 px square PNG avatar: a diagonal gradient between two colours (a face-like square, unlike a banner). */
function avatarPng(from: [number, number, number], to: [number, number, number]): Buffer {
  const size = 96;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size - 2);
      for (let c = 0; c < 3; c++)
        row[1 + x * 3 + c] = Math.round((from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The main page on Bluesky: the whole server (`npm start`'s API and worker) with SOCIAL_NETWORK=bluesky reads a
 * real local AT Protocol network's event stream; seeded posts with the programme's hashtag, and their likes,
 * reposts, replies and quotes, reach the leaderboard and the posts grid (our own cards linking to bsky.app).
 */
describe.skipIf(skip)('the Mana Leaderboard on Bluesky in the browser', () => {
  let network: LocalAtprotoNetwork;
  let schema: ScratchSchema;
  let server: RunningServer;
  let browser: Browser;
  /** Mana per author (the board names authors by handle), as the test tallies it from what it seeds (weights: like 1, reply 2, repost 2, quote 3). */
  const expected = new Map<string, number>();

  beforeAll(async () => {
    network = await startAtprotoNetwork();
    const seed = network.network.getSeedClient();
    const authors = [
      { name: 'ada', displayName: 'Ada Lovelace', avatar: avatarPng([251, 191, 36], [124, 58, 237]) },
      { name: 'grace', displayName: 'Grace Hopper', avatar: avatarPng([45, 212, 191], [30, 64, 175]) },
      // No avatar: the board shows the letter fallback.
      { name: 'linus', displayName: 'Linus', avatar: undefined },
      {
        name: 'margaret',
        displayName: 'Margaret Hamilton',
        avatar: avatarPng([244, 114, 182], [91, 33, 182]),
      },
    ];
    const did: Record<string, Did> = {};
    for (const a of authors) {
      await seed.createAccount(a.name, {
        handle: `${a.name}.test`,
        email: `${a.name}@test.com`,
        password: 'pass',
      });
      did[a.name] = seed.dids[a.name] as Did;
      const headers = seed.getHeaders(did[a.name] as Did);
      const blob = a.avatar
        ? (await seed.agent.com.atproto.repo.uploadBlob(a.avatar, { encoding: 'image/png', headers })).data
            .blob
        : undefined;
      await seed.agent.app.bsky.actor.profile.create(
        { repo: did[a.name] ?? '' },
        {
          displayName: a.displayName,
          ...(blob ? { avatar: blob } : {}),
          createdAt: '2024-01-01T00:00:00.000Z',
        },
        headers,
      );
      expected.set(`${a.name}.test`, 0);
    }
    const fans: Did[] = [];
    for (let i = 0; i < 8; i++) {
      await seed.createAccount(`fan${i}`, {
        handle: `fan${i}.test`,
        email: `fan${i}@test.com`,
        password: 'pass',
      });
      fans.push(seed.dids[`fan${i}`] as Did);
    }
    await network.network.processAll();

    const serverUrl = testEnv.databaseUrl ?? '';
    schema = await createScratchSchema(serverUrl, 'mb-e2e-bluesky-board');
    server = await startServer({
      SOCIAL_NETWORK: 'bluesky',
      DATABASE_URL: schema.url,
      REDIS_URL: testEnv.redisUrl ?? 'redis://127.0.0.1:6379',
      BLUESKY_APPVIEW_URL: network.appviewUrl,
      BLUESKY_PLC_URL: network.plcUrl,
      BLUESKY_RELAY_URL: network.streamUrl,
      BLUESKY_HANDLE_RESOLVER_URL: network.pdsUrl,
      BLUESKY_ALLOW_HTTP: 'true',
      IMAGE_ORIGINS: new URL(network.appviewUrl).origin,
      SEED_DEMO: 'false',
      // Off the demo the programme names its official accounts (issue 25); this test needs none of theirs.
      OFFICIAL_ACCOUNTS: 'manahq.test',
    });
    // The worker leader reads the stream from its live end: wait until it runs before seeding.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const texts: Record<string, string[]> = {
      ada: ['Notes on the analytical engine, week one #ManaBoard', 'Loops before loops were cool #EarnMana'],
      grace: ['Found an actual bug in the relay today #ManaBoard'],
      linus: ['Release candidate is out, test it #ManaBoard'],
      margaret: [
        'Priority displays saved the landing #ManaBoard',
        'Software engineering is engineering #EarnMana',
      ],
    };
    const add = (name: string, mana: number) =>
      expected.set(`${name}.test`, (expected.get(`${name}.test`) ?? 0) + mana);
    let n = 0;
    for (const [name, list] of Object.entries(texts)) {
      for (const text of list) {
        const post = await seed.post(did[name] as Did, text);
        n++;
        const likes = (n * 3) % 8;
        for (let i = 0; i < likes; i++) await seed.like(fans[i] as Did, post.ref);
        add(name, likes);
        const reposts = n % 3;
        for (let i = 0; i < reposts; i++) await seed.repost(fans[7 - i] as Did, post.ref);
        add(name, reposts * 2);
        if (n % 2 === 0) {
          await seed.reply(fans[n % 8] as Did, post.ref, post.ref, 'Agreed!');
          add(name, 2);
        }
      }
    }
    await network.network.processAll();
    browser = await launchChromium();
    await fs.mkdir(screenshots, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await schema?.drop();
    await network?.close();
  });

  it('shows the Mana the seeded actions earn, and screenshots of the main page at each width', async () => {
    // The totals job runs each minute: the board equals the tally once it has run after the stream stored all.
    await expect
      .poll(
        async () => {
          const response = await fetch(`${server.origin}/api/mana?limit=100`);
          const data = manaResponseSchema.parse(await response.json()).data;
          return Object.fromEntries(data.authors.map((a) => [a.authorName, a.totalMana]));
        },
        { timeout: 150_000, interval: 2_000 },
      )
      .toEqual(Object.fromEntries(expected));

    for (const width of widths) {
      const context = await browser.newContext({ viewport: { width, height: heights[width] } });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      try {
        await page.goto(server.origin, { waitUntil: 'networkidle' });
        await page
          .getByTestId('rank-row')
          .first()
          .waitFor({ timeout: 60_000 })
          .catch(async (error: unknown) => {
            await page.screenshot({
              path: path.join(screenshots, `bluesky-leaderboard-failed-${width}.png`),
            });
            throw error;
          });
        // Avatars load lazily: bring the board into view until every one has loaded, then back to the top.
        const board = page.locator('section[aria-labelledby="leaderboard-title"]');
        await board.scrollIntoViewIfNeeded();
        await expect
          .poll(
            () =>
              board
                .locator('img')
                .evaluateAll((images) =>
                  images.every(
                    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
                  ),
                ),
            { timeout: 20_000 },
          )
          .toBe(true);
        expect(await board.locator('img').count()).toBe(3);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForTimeout(500);
        await page.screenshot({
          path: path.join(screenshots, `bluesky-leaderboard-${width}.png`),
          fullPage: true,
        });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 300_000);

  it('opens the records behind a post line: each like and repost with its CID, its author linked to bsky.app', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    try {
      await page.goto(server.origin);
      await page.getByTestId('rank-row').first().getByRole('button').click();
      const dialog = page.getByRole('dialog', { name: /Mana breakdown/ });
      const open = dialog.getByRole('button', { name: /^Records of the post of / }).first();
      await open.click();
      const region = dialog.getByRole('region', { name: /^Records of the post of / }).first();
      const items = region.getByTestId('line-record');
      await items.first().waitFor();
      expect(await items.count()).toBeGreaterThan(0);
      const cid = await items.first().locator('code').getAttribute('title');
      expect(cid).toMatch(/^bafyrei/);
      const author = await items.first().getByRole('link').first().getAttribute('href');
      expect(author).toMatch(/^https:\/\/bsky\.app\/profile\/did:plc:/);
      expect(await region.getByTestId('not-traceable').count()).toBe(0);
      await page.waitForTimeout(350); // the dialog's fade-in (300 ms), for the screenshots
      for (const width of widths) {
        await page.setViewportSize({ width, height: heights[width] });
        await region.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(screenshots, `bluesky-breakdown-records-${width}.png`) });
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
