import { startAtprotoNetwork, type LocalAtprotoNetwork } from '../../test/atproto-network';
import { cookieHeader, keepCookies, type Browser } from '../../test/linking-flow';
import type { TestApp } from '../../test/test-app';

/**
 * The requests and rows bluesky-linking.test.ts repeats, kept here so the test file reads as its cases. Nothing here
 * asserts: each helper sends or stores exactly what the test did inline before.
 */

export const START = '/auth/bluesky/start';
export const CALLBACK = '/auth/bluesky/callback';

/** A local network with alice.test on it, processed so the AppView knows her. */
export async function startNetworkWithAlice(): Promise<{
  network: LocalAtprotoNetwork;
  alice: { did: string; handle: string };
}> {
  const network = await startAtprotoNetwork();
  const seed = network.network.getSeedClient();
  await seed.createAccount('alice', {
    handle: 'alice.test',
    email: 'alice@test.com',
    password: 'alice-pass',
  });
  const alice = { did: seed.dids.alice ?? '', handle: 'alice.test' };
  await network.network.processAll();
  return { network, alice };
}

/** The server's settings for Bluesky on the local network, served from `origin`. */
export function blueskyEnv(network: LocalAtprotoNetwork, origin: string): Record<string, string> {
  return {
    SOCIAL_NETWORK: 'bluesky',
    PUBLIC_ORIGIN: origin,
    BLUESKY_APPVIEW_URL: network.appviewUrl,
    BLUESKY_PLC_URL: network.plcUrl,
    BLUESKY_HANDLE_RESOLVER_URL: network.pdsUrl,
    BLUESKY_ALLOW_HTTP: 'true',
  };
}

/** POSTs the start of a linking from `browser`, keeping the cookies it is given. */
export async function startLinking(
  t: TestApp,
  origin: string,
  browser: Browser,
  body: Record<string, unknown>,
) {
  const response = await t.app.inject({
    method: 'POST',
    url: START,
    headers: { ...browser.headers, ...cookieHeader(browser, START) },
    payload: { redirectAfter: `${origin}/auth/callback`, ...body },
  });
  keepCookies(browser, response.headers['set-cookie']);
  return response;
}

/** GETs the OAuth callback with `query` from `browser`. */
export async function getCallback(t: TestApp, browser: Browser, query: string) {
  return t.app.inject({
    method: 'GET',
    url: `${CALLBACK}?${query}`,
    headers: cookieHeader(browser, CALLBACK),
  });
}

/** The newest attempt not used yet. */
export async function latestOpenAttempt(t: TestApp): Promise<{ state: string } | undefined> {
  const [attempt] = await t.database.db
    .selectFrom('oauth_attempts')
    .select('state')
    .where('used', '=', false)
    .orderBy('created_at', 'desc')
    .limit(1)
    .execute();
  return attempt;
}

/** Stores alice as a tracked author with one original post of key `rkey`. */
export async function storeAlicePost(t: TestApp, did: string, rkey: string): Promise<void> {
  const now = new Date();
  await t.database.db
    .insertInto('authors')
    .values({
      id: did,
      handle: 'alice.test',
      display_name: 'Alice',
      avatar_url: null,
      first_tracked_at: now,
      updated_at: now,
    })
    .execute();
  await t.database.db
    .insertInto('posts')
    .values({
      id: `at://${did}/app.bsky.feed.post/${rkey}`,
      author_id: did,
      text: 'Climbing the #ManaBoard',
      created_at: now,
      kind: 'original',
      likes: 1,
      replies: 0,
      reposts: 0,
      quotes: 0,
      first_seen_at: now,
      refreshed_at: now,
    })
    .execute();
}
