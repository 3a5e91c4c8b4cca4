import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyWorld, xSimPlugin } from './plugin';
import { createXSimServer, standaloneClient } from './server';
import { APP_BEARER, signIn, TEST_CLIENT } from './test-support';
import { World } from './world';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'";

/** A host app like the server: its own routes and error shape, a strict CSP, the simulation under /x-sim. */
async function hostApp(world: World | (() => World)) {
  const app = Fastify();
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Content-Security-Policy', STRICT_CSP);
  });
  app.setErrorHandler(async (_error, _request, reply) => reply.code(500).send({ ok: false }));
  app.get('/api/health', async () => ({ ok: true }));
  await app.register(xSimPlugin, {
    prefix: '/x-sim',
    world,
    clients: [TEST_CLIENT],
    appBearerToken: APP_BEARER,
  });
  await app.ready();
  return app;
}

describe('the plugin under a prefix', () => {
  it('serves the sign-in page so that it works under a strict CSP, and its links stay under the prefix', async () => {
    const app = await hostApp(new World(NOW));
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: TEST_CLIENT.clientId,
      redirect_uri: TEST_CLIENT.redirectUris[0] ?? '',
      scope: 'tweet.read users.read',
      state: 's',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const pageUrl = `http://localhost/x-sim/i/oauth2/authorize?${query}`;
    const page = await app.inject({ url: pageUrl });
    expect(page.statusCode).toBe(200);
    // No inline script or style of any kind: the CSP above would block them.
    expect(page.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=|javascript:/i);
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1] ?? '';
    const css = await app.inject({ url: new URL(stylesheet, pageUrl).pathname });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    const action = /<form method="post" action="([^"]+)">/.exec(page.body)?.[1] ?? '';
    expect(new URL(action, pageUrl).pathname).toBe('/x-sim/i/oauth2/authorize');
    expect((await app.inject({ url: '/api/health' })).json()).toEqual({ ok: true });
  });

  it('signs in, answers the API and serves avatars, all under the prefix', async () => {
    const world = new World(NOW);
    const ann = world.createUser({ username: 'ann', followers: 7 });
    world.createPost(ann.id, 'hello #ManaBoard');
    const app = await hostApp(world);
    const { tokens } = await signIn(app, 'ann', 'tweet.read users.read', '/x-sim');
    const me = await app.inject({
      url: '/x-sim/2/users/me?user.fields=profile_image_url,public_metrics',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.json().data).toMatchObject({
      id: ann.id,
      public_metrics: { followers_count: 7, tweet_count: 1 },
    });
    const avatar = new URL(me.json().data.profile_image_url as string);
    expect(avatar.pathname).toBe(`/x-sim/avatars/${ann.id}.svg`);
    const svg = await app.inject({ url: avatar.pathname });
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toMatch(/^<svg [^>]*>.*<\/svg>$/s);
    expect((await app.inject({ url: '/x-sim/avatars/999.svg' })).statusCode).toBe(404);
    // X's own error shapes inside the prefix, never the host's.
    const unknown = await app.inject({
      url: '/x-sim/2/nothing',
      headers: { authorization: `Bearer ${APP_BEARER}` },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].message).toContain('does not exist');
    const badJson = await app.inject({
      method: 'POST',
      url: '/x-sim/2/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error).toBe('invalid_request');
  });

  it('follows the wall clock when asked, never going back', async () => {
    const world = new World(Date.now() - 60_000);
    const app = Fastify();
    await app.register(xSimPlugin, { world, clients: [], appBearerToken: 'b', followWallClock: true });
    await app.inject({ url: '/2/users/me' });
    expect(Math.abs(world.now() - Date.now())).toBeLessThan(5_000);
    world.advance(3_600_000);
    const ahead = world.now();
    await app.inject({ url: '/2/users/me' });
    expect(world.now()).toBe(ahead);
  });

  it('builds the standalone server with the demo app', async () => {
    const { app, world } = await createXSimServer({
      world: new World(NOW),
      redirectUris: ['http://x.test/cb'],
    });
    const search = await app.inject({
      url: '/2/tweets/search/recent?query=hello',
      headers: { authorization: `Bearer ${standaloneClient.appBearerToken}` },
    });
    expect(search.json()).toEqual({ meta: { result_count: 0 } });
    expect(world.now()).toBe(NOW);
    await app.close();
  });
});

describe('a lazy world', () => {
  it('is built at the first request that needs it, once, and the host answers before that', async () => {
    let builds = 0;
    const world = lazyWorld(() => {
      builds += 1;
      const built = new World(NOW);
      built.createUser({ username: 'lazy_one', createdAt: NOW - 86_400_000 });
      return built;
    });
    const app = await hostApp(world);
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect(builds).toBe(0);
    const user = world().userByUsername('lazy_one');
    expect(builds).toBe(1);
    const avatar = await app.inject({ url: `/x-sim/avatars/${user?.id}.svg` });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toContain('svg');
    expect(builds).toBe(1);
  });

  it('serves requests from the world its function builds', async () => {
    let builds = 0;
    const app = await hostApp(
      lazyWorld(() => {
        builds += 1;
        return new World(NOW);
      }),
    );
    expect(builds).toBe(0);
    const missing = await app.inject({ url: '/x-sim/avatars/1.svg' });
    expect(missing.statusCode).toBe(404);
    expect(builds).toBe(1);
    await app.inject({ url: '/x-sim/avatars/2.svg' });
    expect(builds).toBe(1);
  });
});
