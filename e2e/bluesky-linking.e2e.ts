import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { NodeOAuthClient, requestLocalLock, type NodeSavedSession } from '@atproto/oauth-client-node';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  atprotoNetworkSkipReason,
  backdateAccount,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../apps/server/src/test/atproto-network';
import { createScratchSchema, withClient, type ScratchSchema } from '../apps/server/src/test/postgres-schema';
import { parseKey, TokenCipher } from '../apps/server/src/security/token-cipher';
import { testEnv } from '../apps/server/src/config/test-env';
import { hasChromium, launchChromium } from './support/chromium';
import { browserIdOf } from './support/linking';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const skip = !hasChromium || atprotoNetworkSkipReason() !== null;
const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');
const widths = [375, 768, 1280, 1600] as const;
const heights: Record<(typeof widths)[number], number> = { 375: 812, 768: 1024, 1280: 900, 1600: 1000 };

type Did = `did:${string}:${string}`;
type Member = { handle: `${string}.${string}`; did: Did; password: string };

function didOf(dids: Record<string, Did>, name: string): Did {
  const did = dids[name];
  if (!did) throw new Error(`no DID for ${name}`);
  return did;
}

/**
 * Linking on Bluesky in Chromium against a real local AT Protocol network: the member types their handle in the
 * card, signs in on their PDS's own pages (password, then consent), and comes back linked with the handle and
 * avatar the AppView shows. The server runs as `npm run start:api` on PostgreSQL (the Bluesky worker is not part
 * of this test), with SOCIAL_NETWORK=bluesky and every BLUESKY_* variable pointing at the local network.
 */
describe.skipIf(skip)('linking a Bluesky account in the browser', () => {
  let network: LocalAtprotoNetwork;
  let schema: ScratchSchema;
  let server: RunningServer;
  let browser: Browser;
  let seed: ReturnType<LocalAtprotoNetwork['network']['getSeedClient']>;
  const tokenKey = randomBytes(32).toString('base64url');
  const members: Record<'alice' | 'bob' | 'carol', Member> = {
    alice: { handle: 'alice.test', did: 'did:plc:unset', password: 'alice-pass' },
    bob: { handle: 'bob.test', did: 'did:plc:unset', password: 'bob-pass' },
    carol: { handle: 'carol.test', did: 'did:plc:unset', password: 'carol-pass' },
  };

  beforeAll(async () => {
    network = await startAtprotoNetwork();
    seed = network.network.getSeedClient();
    const avatar = await fs.readFile(
      path.resolve(import.meta.dirname, '../apps/web/public/brand/og-image.jpg'),
    );
    for (const [name, member] of Object.entries(members)) {
      await seed.createAccount(name, {
        handle: member.handle,
        email: `${name}@test.com`,
        password: member.password,
      });
      member.did = didOf(seed.dids, name);
      // Old enough for the anti-bot gate (30 days), as the PLC directory dates it; bob is followed enough (10).
      backdateAccount(network, member.did, new Date('2024-01-01T00:00:00.000Z'));
      // An avatar.
      const headers = seed.getHeaders(member.did);
      const { data } = await seed.agent.com.atproto.repo.uploadBlob(avatar, {
        encoding: 'image/jpeg',
        headers,
      });
      await seed.agent.app.bsky.actor.profile.create(
        { repo: member.did },
        { displayName: name, avatar: data.blob, createdAt: '2024-01-01T00:00:00.000Z' },
        headers,
      );
    }
    for (let i = 0; i < 10; i++) {
      const fan = `fan${i}`;
      await seed.createAccount(fan, {
        handle: `${fan}.test`,
        email: `${fan}@test.com`,
        password: 'fan-pass',
      });
      await seed.follow(didOf(seed.dids, fan), members.bob.did);
    }
    await network.network.processAll();

    const serverUrl = testEnv.databaseUrl ?? '';
    schema = await createScratchSchema(serverUrl, 'mb-e2e-bluesky');
    server = await startServer(
      {
        SOCIAL_NETWORK: 'bluesky',
        DATABASE_URL: schema.url,
        REDIS_URL: testEnv.redisUrl ?? 'redis://127.0.0.1:6379',
        TOKEN_ENCRYPTION_KEY: tokenKey,
        BLUESKY_APPVIEW_URL: network.appviewUrl,
        BLUESKY_PLC_URL: network.plcUrl,
        BLUESKY_HANDLE_RESOLVER_URL: network.pdsUrl,
        BLUESKY_ALLOW_HTTP: 'true',
        // Avatars come from the AppView's image service.
        IMAGE_ORIGINS: new URL(network.appviewUrl).origin,
        SEED_DEMO: 'false',
        // Off the demo the programme names its official accounts (issue 25); this test needs none of theirs.
        OFFICIAL_ACCOUNTS: 'manahq.test',
        // The console's admin on this network, named by DID as docs/console.md advises (a handle can change: carol's
        // does in a test below).
        ADMIN_ACCOUNTS: members.alice.did,
      },
      ['api'],
    );
    browser = await launchChromium();
    await fs.mkdir(screenshots, { recursive: true });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    if (server && !(await fetch(`${server.origin}/readyz`).catch(() => undefined))) {
      console.error(`the server stopped:\n${server.output().slice(-4000)}`);
    }
    await server?.stop();
    await schema?.drop();
    await network?.close();
  });

  async function freshBrowser(width: (typeof widths)[number] = 375) {
    const context: BrowserContext = await browser.newContext({ viewport: { width, height: heights[width] } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    // The PDS's pages name no icon, so Chromium asks the callback host for /favicon.ico (NOTES).
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    return { context, page, errors };
  }

  const card = (page: Page) => page.getByRole('region', { name: 'Mana card' });
  const linkButton = (page: Page) => page.getByRole('button', { name: /Link your Bluesky account to earn/ });

  /** The card's handle form, the PDS's sign-in and consent pages, back on the main page linked. */
  async function linkFromCard(page: Page, member: Member): Promise<void> {
    await linkButton(page).click();
    await page.getByLabel('Your Bluesky handle').fill(member.handle);
    await page.getByRole('button', { name: 'Link Bluesky account' }).click();
    await page.waitForURL((url) => url.origin === new URL(network.pdsUrl).origin);
    await page.locator('input[type="password"]').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((url) => url.origin === server.origin && url.pathname === '/', { timeout: 20_000 });
    await card(page).getByRole('button', { name: 'Unlink' }).waitFor();
  }

  async function storedSession(did: string): Promise<NodeSavedSession | undefined> {
    const rows = await withClient(schema.url, (client) =>
      client.query<{ sealed: string }>('select sealed from bluesky_oauth_sessions where did = $1', [did]),
    );
    const sealed = rows.rows[0]?.sealed;
    if (!sealed) return undefined;
    return JSON.parse(new TokenCipher(parseKey(tokenKey)).decrypt(sealed)) as NodeSavedSession;
  }

  /** A client of our own holding a copy of a session: whether the PDS still honours its tokens. */
  async function sessionWorks(did: string, saved: NodeSavedSession): Promise<boolean> {
    const copy = new Map<string, NodeSavedSession>([[did, saved]]);
    const client = new NodeOAuthClient({
      clientMetadata: {
        client_id: `http://localhost?redirect_uri=${encodeURIComponent(`${server.origin}/auth/bluesky/callback`)}`,
        redirect_uris: [`${server.origin}/auth/bluesky/callback` as `http://127.0.0.1${string}`],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        dpop_bound_access_tokens: true,
        scope: 'atproto',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      stateStore: { set: async () => {}, get: async () => undefined, del: async () => {} },
      sessionStore: {
        set: async (key, value) => void copy.set(key, value),
        get: async (key) => copy.get(key),
        del: async (key) => void copy.delete(key),
      },
      requestLock: requestLocalLock,
      allowHttp: true,
      plcDirectoryUrl: network.plcUrl,
      handleResolver: network.pdsUrl,
      fetch: globalThis.fetch,
    });
    try {
      // Refreshing asks the authorization server about the grant itself.
      await (await client.restore(did, true)).getTokenInfo(true);
      return true;
    } catch {
      return false;
    }
  }

  it('links through the handle form and the PDS sign-in, shows the handle and avatar, and unlink revokes', async () => {
    const { context, page, errors } = await freshBrowser(375);
    try {
      await page.goto(server.origin, { waitUntil: 'networkidle' });
      await linkFromCard(page, members.alice);
      await card(page).getByText('@alice.test', { exact: true }).waitFor();
      await page.getByRole('banner').getByText('@alice.test', { exact: true }).waitFor();
      const avatar = card(page).locator('img[src*="/img/avatar/"]');
      await avatar.waitFor();
      // Loaded from the AppView's image service (allowed by the page's CSP), not the letter fallback.
      await expect
        .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
          timeout: 10_000,
        })
        .toBe(true);
      expect(new URL((await avatar.getAttribute('src')) ?? '').origin).toBe(
        new URL(network.appviewUrl).origin,
      );

      const rows = await withClient(schema.url, (client) =>
        client.query<{ network_user_id: string; handle: string; avatar_url: string | null }>(
          'select network_user_id, handle, avatar_url from accounts',
        ),
      );
      expect(rows.rows).toEqual([
        { network_user_id: members.alice.did, handle: 'alice.test', avatar_url: expect.any(String) },
      ]);
      const session = await storedSession(members.alice.did);
      expect(session?.tokenSet.sub).toBe(members.alice.did);
      expect(session?.tokenSet.scope).toBe('atproto');

      await card(page).getByRole('button', { name: 'Unlink' }).click();
      await linkButton(page).waitFor();
      expect(await storedSession(members.alice.did)).toBeUndefined();
      // The grant is gone at the PDS too: the tokens the server held no longer refresh.
      expect(await sessionWorks(members.alice.did, session as NodeSavedSession)).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('follows a handle change: a relink updates the same member, never a new one', async () => {
    const { context, page, errors } = await freshBrowser(375);
    try {
      await page.goto(server.origin, { waitUntil: 'networkidle' });
      await linkFromCard(page, members.carol);
      await seed.updateHandle(members.carol.did, 'carol-renamed.test');
      await network.network.processAll();
      await card(page).getByRole('button', { name: 'Unlink' }).click();
      await linkFromCard(page, { ...members.carol, handle: 'carol-renamed.test' });
      await card(page).getByText('@carol-renamed.test', { exact: true }).waitFor();
      const rows = await withClient(schema.url, (client) =>
        client.query<{ handle: string }>('select handle from accounts where network_user_id = $1', [
          members.carol.did,
        ]),
      );
      expect(rows.rows).toEqual([{ handle: 'carol-renamed.test' }]);
      // The other side of "unlink revokes": a live session's copy does refresh at the PDS.
      const live = await storedSession(members.carol.did);
      expect(live).toBeDefined();
      expect(await sessionWorks(members.carol.did, live as NodeSavedSession)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('pays the referrer 50 when a Bluesky member links through their referral link', async () => {
    const referrer = await freshBrowser(1280);
    const referee = await freshBrowser(1280);
    try {
      await referrer.page.goto(server.origin, { waitUntil: 'networkidle' });
      await linkFromCard(referrer.page, members.alice);
      const referrerId = await browserIdOf(referrer.page);

      await referee.page.goto(`${server.origin}/r/@alice.test`, { waitUntil: 'networkidle' });
      await referee.page.getByRole('button', { name: /Referred by alice\.test/ }).waitFor();
      await linkFromCard(referee.page, members.bob);
      await referee.page
        .getByText('Referral applied! You were referred by @alice.test.')
        .waitFor({ timeout: 6000 });

      const stats = await fetch(`${server.origin}/referrals/stats`, { headers: { 'X-User-Id': referrerId } });
      expect(((await stats.json()) as { data: { refereeCount: number } }).data.refereeCount).toBe(1);
      const referrals = await withClient(schema.url, (client) =>
        client.query<{ referrer: string; referee: string; reward_mana: number; status: string }>(
          `select r.handle as referrer, e.handle as referee, reward_mana, status from referrals
             join accounts r on r.id = referrer_account_id join accounts e on e.id = referee_account_id`,
        ),
      );
      expect(referrals.rows).toEqual([
        { referrer: 'alice.test', referee: 'bob.test', reward_mana: 50, status: 'credited' },
      ]);
      expect(referrer.errors).toEqual([]);
      expect(referee.errors).toEqual([]);
    } finally {
      await referrer.context.close();
      await referee.context.close();
    }
  });

  /** The console's sign-in on Bluesky: the handle first, then the PDS's own sign-in and consent pages. */
  async function consoleSignIn(page: Page, member: Member): Promise<void> {
    await page.goto(`${server.origin}/admin`, { waitUntil: 'networkidle' });
    const form = page.getByRole('form', { name: 'Sign in with Bluesky' });
    await form.getByLabel('Your Bluesky handle').fill(member.handle);
    await form.getByRole('button', { name: 'Sign in with Bluesky' }).click();
    await page.waitForURL((url) => url.origin === new URL(network.pdsUrl).origin);
    await page.locator('input[type="password"]').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((url) => url.origin === server.origin && url.pathname.startsWith('/admin'), {
      timeout: 20_000,
    });
  }

  it('signs an admin in to the console through their PDS, and refuses an account ADMIN_ACCOUNTS does not name', async () => {
    const admin = await freshBrowser(1280);
    try {
      await consoleSignIn(admin.page, members.alice);
      await admin.page.getByRole('heading', { name: 'Announcements', level: 1 }).waitFor();
      await admin.page.getByText(`@${members.alice.handle}`).first().waitFor();
      const session = await admin.page.evaluate(async () => (await fetch('/api/admin/session')).json());
      expect(session).toMatchObject({ success: true, admin: { networkUserId: members.alice.did } });
    } finally {
      await admin.context.close();
    }
    const member = await freshBrowser(1280);
    try {
      await consoleSignIn(member.page, members.bob);
      await member.page.getByText(/not an admin of this programme/).waitFor();
      const status = await member.page.evaluate(async () => (await fetch('/api/admin/session')).status);
      expect(status).toBe(401);
    } finally {
      await member.context.close();
    }
  }, 120_000);

  it('has no serious or critical accessibility findings on the handle form, and says why a handle fails', async () => {
    const { context, page } = await freshBrowser(375);
    try {
      await page.goto(server.origin, { waitUntil: 'networkidle' });
      await linkButton(page).click();
      const input = page.getByLabel('Your Bluesky handle');
      await input.waitFor();
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
      const findings = await new AxeBuilder({ page }).include('section[aria-label="Mana card"]').analyze();
      const bad = findings.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad).toEqual([]);

      await input.fill('nobody.test');
      await page.keyboard.press('Enter');
      await page
        .getByRole('alert')
        .getByText('No Bluesky account answers to nobody.test. Check the handle and try again.')
        .waitFor();
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect(page.url()).toBe(`${server.origin}/`);
    } finally {
      await context.close();
    }
  });

  it.each(widths)('screenshots of the card with the handle form and after linking (%i px)', async (width) => {
    const { context, page } = await freshBrowser(width);
    try {
      await page.goto(server.origin, { waitUntil: 'networkidle' });
      await linkButton(page).click();
      await page.getByLabel('Your Bluesky handle').fill(members.alice.handle);
      await page.screenshot({ path: path.join(screenshots, `bluesky-link-form-${width}.png`) });
      await page.getByRole('button', { name: 'Link Bluesky account' }).click();
      await page.waitForURL((url) => url.origin === new URL(network.pdsUrl).origin);
      await page.locator('input[type="password"]').waitFor();
      await page.screenshot({ path: path.join(screenshots, `bluesky-link-sign-in-${width}.png`) });
      await page.locator('input[type="password"]').fill(members.alice.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.waitForURL((url) => url.origin === server.origin && url.pathname === '/', {
        timeout: 20_000,
      });
      await card(page).getByText('@alice.test', { exact: true }).waitFor();
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(screenshots, `bluesky-link-linked-${width}.png`) });
    } finally {
      await context.close();
    }
  });
});
