import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStartResponseSchema, postsResponseSchema } from '@manaboard/contract';
import { ConfigError } from '../../config/config';
import { atprotoNetworkSkipReason, type LocalAtprotoNetwork } from '../../test/atproto-network';
import { newBrowser, type Browser } from '../../test/linking-flow';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { TokenVault } from '../../security/token-vault';
import { loadOrCreateClientKey } from './bluesky-oauth-store';
import {
  CALLBACK,
  START,
  blueskyEnv as envFor,
  getCallback,
  latestOpenAttempt,
  startLinking,
  startNetworkWithAlice,
  storeAlicePost,
} from './bluesky-linking.test-support';

const skip = atprotoNetworkSkipReason();

describe.skipIf(skip !== null)('linking on Bluesky against a local AT Protocol network', () => {
  let network: LocalAtprotoNetwork;
  let alice: { did: string; handle: string };

  beforeAll(async () => {
    ({ network, alice } = await startNetworkWithAlice());
  }, 120_000);
  afterAll(async () => {
    await network?.close();
  });

  const blueskyEnv = (origin: string) => envFor(network, origin);

  describe.each(testDatabaseKinds())('on %s', (kind) => {
    const origin = 'http://127.0.0.1:1';
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(kind, blueskyEnv(origin));
    });
    afterAll(async () => {
      await t?.close();
    });

    const start = (browser: Browser, body: Record<string, unknown>) => startLinking(t, origin, browser, body);

    async function callback(browser: Browser, query: string): Promise<URL> {
      const response = await getCallback(t, browser, query);
      expect(response.statusCode, response.body).toBe(302);
      return new URL(String(response.headers.location));
    }

    it('sends the member to their own PDS with a pushed request, keyed by the state that comes back', async () => {
      const browser = await newBrowser(t);
      const response = await start(browser, { handle: '@alice.test' });
      expect(response.statusCode, response.body).toBe(200);
      const authorizeUrl = new URL(authStartResponseSchema.parse(response.json()).data.authorizeUrl);
      expect(authorizeUrl.origin).toBe(new URL(network.pdsUrl).origin);
      // PAR: only the client and the pushed request's handle travel in the URL.
      expect(authorizeUrl.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
      const clientId = new URL(authorizeUrl.searchParams.get('client_id') ?? '');
      expect(clientId.origin).toBe('http://localhost');
      expect(clientId.searchParams.get('redirect_uri')).toBe(`${origin}${CALLBACK}`);
      expect(clientId.searchParams.get('scope')).toBeNull(); // 'atproto', the loopback default

      // The attempt and the OAuth client's pending state share one key, sealed at rest.
      const attempts = await t.database.db.selectFrom('oauth_attempts').selectAll().execute();
      const states = await t.database.db.selectFrom('bluesky_oauth_states').selectAll().execute();
      const attempt = attempts.find((row) => states.some((state) => state.key === row.state));
      expect(attempt).toBeDefined();
      const state = states.find((row) => row.key === attempt?.state);
      expect(state?.sealed).not.toContain('verifier');
      expect(state?.sealed).not.toContain(alice.did);
    });

    it('takes a DID instead of a handle', async () => {
      const response = await start(await newBrowser(t), { handle: alice.did });
      expect(response.statusCode, response.body).toBe(200);
    });

    it('uses an attempt once: a refused sign-in ends it, and its state never works again', async () => {
      const browser = await newBrowser(t);
      expect((await start(browser, { handle: 'alice.test' })).statusCode).toBe(200);
      const attempt = await latestOpenAttempt(t);
      const state = encodeURIComponent(attempt?.state ?? '');
      const denied = await callback(
        browser,
        `state=${state}&error=access_denied&iss=${encodeURIComponent(network.pdsUrl)}`,
      );
      expect(denied.searchParams.get('error')).toBe('access_denied');
      const replay = await callback(browser, `state=${state}&code=anything`);
      expect(replay.searchParams.get('error')).toBe('invalid_state');
    });

    it('refuses a callback from a browser that did not start the attempt', async () => {
      const starter = await newBrowser(t);
      expect((await start(starter, { handle: 'alice.test' })).statusCode).toBe(200);
      const attempt = await latestOpenAttempt(t);
      const stranger = await newBrowser(t);
      const landed = await callback(stranger, `state=${encodeURIComponent(attempt?.state ?? '')}&code=x`);
      expect(landed.searchParams.get('error')).toBe('invalid_state');
    });

    it.each([
      ['', /Type your handle/],
      ['   ', /Type your handle/],
      ['not a handle', /not a handle/],
      ['alice', /not a handle/],
      ['alice..test', /not a handle/],
      ['did:plc:', /not a handle/],
      ['https://evil.example/x', /not a handle/],
    ])('answers a clear 400 for the handle %j', async (handle, message) => {
      const response = await start(await newBrowser(t), { handle });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ ok: boolean; error: { code: string; message: string } }>();
      expect(body.ok).toBe(false);
      expect(body.error.code).toBe('BAD_REQUEST');
      expect(body.error.message).toMatch(message);
    });

    it('answers a clear 400 when no account answers to the handle, and a missing handle is a 400 too', async () => {
      const nobody = await start(await newBrowser(t), { handle: 'nobody.test' });
      expect(nobody.statusCode, nobody.body).toBe(400);
      expect(nobody.json<{ error: { message: string } }>().error.message).toBe(
        'No Bluesky account answers to nobody.test. Check the handle and try again.',
      );
      const missing = await start(await newBrowser(t), {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json<{ error: { code: string } }>().error.code).toBe('BAD_REQUEST');
    });

    it('still checks CSRF and the redirect allowlist on the start', async () => {
      const browser = await newBrowser(t);
      const noCsrf = await t.app.inject({
        method: 'POST',
        url: START,
        headers: { 'x-user-id': browser.id },
        payload: { redirectAfter: `${origin}/auth/callback`, handle: 'alice.test' },
      });
      expect(noCsrf.statusCode).toBe(403);
      const elsewhere = await start(browser, {
        handle: 'alice.test',
        redirectAfter: 'https://evil.example/auth/callback',
      });
      expect(elsewhere.statusCode).toBe(400);
    });

    it('serves no client metadata for a loopback client, and keeps the X routes away', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/oauth/client-metadata.json' })).statusCode).toBe(
        404,
      );
      const browser = await newBrowser(t);
      const x = await t.app.inject({
        method: 'POST',
        url: '/auth/twitter/start',
        headers: browser.headers,
        payload: { redirectAfter: `${origin}/auth/callback` },
      });
      expect(x.statusCode).toBe(404);
      const config = await t.app.inject({ method: 'GET', url: '/api/public/config' });
      expect(config.json<{ data: { socialNetwork: string; simulated: boolean } }>().data).toMatchObject({
        socialNetwork: 'bluesky',
        simulated: false,
      });
    });
  });

  it("links the leaderboard's posts to their public page on bsky.app", async () => {
    const t = await buildTestApp('pglite', blueskyEnv('http://127.0.0.1:1'));
    try {
      const rkey = '3lbx7v2bqzk2a';
      await storeAlicePost(t, alice.did, rkey);
      const posts = postsResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/posts' })).json(),
      ).data;
      expect(posts.map((post) => post.url)).toEqual([`https://bsky.app/profile/alice.test/post/${rkey}`]);
    } finally {
      await t.close();
    }
  });

  it('on localhost, forwards the return from 127.0.0.1 to the public origin untouched', async () => {
    const t = await buildTestApp('pglite', blueskyEnv('http://localhost:7'));
    try {
      const bounced = await t.app.inject({
        method: 'GET',
        url: `${CALLBACK}?state=abc&code=def&iss=http%3A%2F%2Fpds`,
        headers: { host: '127.0.0.1:7' },
      });
      expect(bounced.statusCode).toBe(302);
      expect(bounced.headers.location).toBe(
        `http://localhost:7${CALLBACK}?state=abc&code=def&iss=http%3A%2F%2Fpds`,
      );
      // On the public origin itself the callback is handled (an unknown state ends it).
      const handled = await t.app.inject({
        method: 'GET',
        url: `${CALLBACK}?state=abc&code=def`,
        headers: { host: 'localhost:7' },
      });
      expect(handled.headers.location).toBe('http://localhost:7/auth/callback?error=invalid_state');
    } finally {
      await t.close();
    }
  });

  it('as a confidential client on https, serves its metadata and only the public half of its key', async () => {
    const t = await buildTestApp('pglite', blueskyEnv('https://mana.example.org'));
    try {
      const metadata = await t.app.inject({ method: 'GET', url: '/oauth/client-metadata.json' });
      expect(metadata.statusCode).toBe(200);
      expect(metadata.json()).toMatchObject({
        client_id: 'https://mana.example.org/oauth/client-metadata.json',
        redirect_uris: ['https://mana.example.org/auth/bluesky/callback'],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        jwks_uri: 'https://mana.example.org/oauth/jwks.json',
        dpop_bound_access_tokens: true,
        scope: 'atproto',
      });
      const jwks = (await t.app.inject({ method: 'GET', url: '/oauth/jwks.json' })).json<{
        keys: Record<string, unknown>[];
      }>();
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256' });
      expect(jwks.keys[0]?.kid).toEqual(expect.any(String));
      expect(jwks.keys[0]).not.toHaveProperty('d');
      // Kept in the database, sealed; every later load (another process, a restart) gets the same key.
      const again = await loadOrCreateClientKey(t.database.db, new TokenVault(t.config));
      expect(again.kid).toBe(jwks.keys[0]?.kid);
      const stored = await t.database.db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', 'bluesky-oauth-client-key')
        .executeTakeFirstOrThrow();
      expect(stored.value).not.toContain('"d"');
    } finally {
      await t.close();
    }
  });

  it('refuses to start on a plain-http origin other than localhost', async () => {
    await expect(buildTestApp('pglite', blueskyEnv('http://mana.example.org'))).rejects.toThrow(ConfigError);
  });
});
