import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { NodeSavedSession } from '@atproto/oauth-client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../apps/server/src/test/atproto-network';
import { createScratchSchema, withClient, type ScratchSchema } from '../apps/server/src/test/postgres-schema';
import { testEnv } from '../apps/server/src/config/test-env';
import { hasChromium, launchChromium } from './support/chromium';
import {
  accountRows,
  blueskyServerEnv,
  freshBrowser as freshBrowserOf,
  card,
  consoleSignIn as consoleSignInOn,
  linkButton,
  linkFromCard as linkFromCardOn,
  linkWithSignInShot,
  seedMembers,
  sessionWorks as sessionWorksOn,
  storedSession as storedSessionOf,
  widths,
  type Member,
} from './support/bluesky-linking';
import { browserIdOf } from './support/linking';
import { startServer, type RunningServer } from './support/server';

const skip = !hasChromium || atprotoNetworkSkipReason() !== null;
const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');

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
    seed = await seedMembers(network, members);

    const serverUrl = testEnv.databaseUrl ?? '';
    schema = await createScratchSchema(serverUrl, 'mb-e2e-bluesky');
    server = await startServer(blueskyServerEnv(network, schema.url, tokenKey, members.alice.did), ['api']);
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

  const freshBrowser = (width: (typeof widths)[number] = 375) => freshBrowserOf(browser, width);

  const linkFromCard = (page: Page, member: Member) => linkFromCardOn(network, server, page, member);

  const storedSession = (did: string) => storedSessionOf(schema.url, tokenKey, did);
  const sessionWorks = (did: string, saved: NodeSavedSession) => sessionWorksOn(network, server, did, saved);

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

      const rows = await accountRows(schema.url);
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

  const consoleSignIn = (page: Page, member: Member) => consoleSignInOn(network, server, page, member);

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
      await linkWithSignInShot(network, server, page, members.alice, width, screenshots);
      await card(page).getByText('@alice.test', { exact: true }).waitFor();
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(screenshots, `bluesky-link-linked-${width}.png`) });
    } finally {
      await context.close();
    }
  });
});
