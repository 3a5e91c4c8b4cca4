import fs from 'node:fs/promises';
import path from 'node:path';
import { NodeOAuthClient, requestLocalLock, type NodeSavedSession } from '@atproto/oauth-client-node';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { backdateAccount, type LocalAtprotoNetwork } from '../../apps/server/src/test/atproto-network';
import { withClient } from '../../apps/server/src/test/postgres-schema';
import { parseKey, TokenCipher } from '../../apps/server/src/security/token-cipher';
import { testEnv } from '../../apps/server/src/config/test-env';
import { watchPageErrors } from './page-errors';

// The Bluesky linking e2e's fixture (accounts on the local network, the server's settings), its session checks and
// its sign-in walks, moved verbatim from bluesky-linking.e2e.ts so that file keeps its cases under 250 lines. What
// the test closed over (the network, the server's origin, the schema, the token key) is passed in.

export type Did = `did:${string}:${string}`;
export type Member = { handle: `${string}.${string}`; did: Did; password: string };
type Seed = ReturnType<LocalAtprotoNetwork['network']['getSeedClient']>;

export function didOf(dids: Record<string, Did>, name: string): Did {
  const did = dids[name];
  if (!did) throw new Error(`no DID for ${name}`);
  return did;
}

/** The members, backdated with avatars, and ten fans following bob, on the local network. */
export async function seedMembers(
  network: LocalAtprotoNetwork,
  members: Record<'alice' | 'bob' | 'carol', Member>,
): Promise<Seed> {
  const seed = network.network.getSeedClient();
  const avatar = await fs.readFile(
    path.resolve(import.meta.dirname, '../../apps/web/public/brand/og-image.jpg'),
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
  return seed;
}

/** The server's settings on the local network (`admin`: the console's admin DID). */
export function blueskyServerEnv(
  network: LocalAtprotoNetwork,
  schemaUrl: string,
  tokenKey: string,
  admin: string,
): Record<string, string> {
  return {
    SOCIAL_NETWORK: 'bluesky',
    DATABASE_URL: schemaUrl,
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
    ADMIN_ACCOUNTS: admin,
  };
}

/** The session the server keeps sealed for `did`, opened with the token key. */
export async function storedSession(
  schemaUrl: string,
  tokenKey: string,
  did: string,
): Promise<NodeSavedSession | undefined> {
  const rows = await withClient(schemaUrl, (client) =>
    client.query<{ sealed: string }>('select sealed from bluesky_oauth_sessions where did = $1', [did]),
  );
  const sealed = rows.rows[0]?.sealed;
  if (!sealed) return undefined;
  return JSON.parse(new TokenCipher(parseKey(tokenKey)).decrypt(sealed)) as NodeSavedSession;
}

/** A client of our own holding a copy of a session: whether the PDS still honours its tokens. */
export async function sessionWorks(
  network: LocalAtprotoNetwork,
  server: { origin: string },
  did: string,
  saved: NodeSavedSession,
): Promise<boolean> {
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

export const card = (page: Page) => page.getByRole('region', { name: 'Mana card' });
export const linkButton = (page: Page) =>
  page.getByRole('button', { name: /Link your Bluesky account to earn/ });

/** The card's handle form, the PDS's sign-in and consent pages, back on the main page linked. */
export async function linkFromCard(
  network: LocalAtprotoNetwork,
  server: { origin: string },
  page: Page,
  member: Member,
): Promise<void> {
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

/** The console's sign-in on Bluesky: the handle first, then the PDS's own sign-in and consent pages. */
export async function consoleSignIn(
  network: LocalAtprotoNetwork,
  server: { origin: string },
  page: Page,
  member: Member,
): Promise<void> {
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

export const widths = [375, 768, 1280, 1600] as const;
type Width = (typeof widths)[number];
const heights: Record<Width, number> = { 375: 812, 768: 1024, 1280: 900, 1600: 1000 };

/** A page of its own at `width`, its errors watched. */
export async function freshBrowser(browser: Browser, width: Width = 375) {
  const context: BrowserContext = await browser.newContext({ viewport: { width, height: heights[width] } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  // The PDS's pages name no icon, so Chromium asks the callback host for /favicon.ico (NOTES).
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
  return { context, page, errors };
}

/** The accounts the server stored. */
export async function accountRows(schemaUrl: string) {
  return withClient(schemaUrl, (client) =>
    client.query<{ network_user_id: string; handle: string; avatar_url: string | null }>(
      'select network_user_id, handle, avatar_url from accounts',
    ),
  );
}

/** The screenshots test's walk from the handle form through the PDS's sign-in (shot at `width`) and consent. */
export async function linkWithSignInShot(
  network: LocalAtprotoNetwork,
  server: { origin: string },
  page: Page,
  member: Member,
  width: number,
  screenshots: string,
): Promise<void> {
  await page.getByRole('button', { name: 'Link Bluesky account' }).click();
  await page.waitForURL((url) => url.origin === new URL(network.pdsUrl).origin);
  await page.locator('input[type="password"]').waitFor();
  await page.screenshot({ path: path.join(screenshots, `bluesky-link-sign-in-${width}.png`) });
  await page.locator('input[type="password"]').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL((url) => url.origin === server.origin && url.pathname === '/', {
    timeout: 20_000,
  });
}
