import Fastify from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { xSimPlugin } from './plugin';
import { APP_BEARER, TEST_CLIENT } from './test-support';
import { World } from './world';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe("the page an account's link opens on the simulated X", () => {
  let world: World;
  let app: Awaited<ReturnType<typeof Fastify>>;
  beforeEach(async () => {
    world = new World(NOW);
    app = Fastify();
    await app.register(xSimPlugin, {
      prefix: '/x-sim',
      world,
      clients: [TEST_CLIENT],
      appBearerToken: APP_BEARER,
    });
    await app.ready();
  });

  it('shows the name, the handle and the latest posts (newest first, escaped), each linked to its page', async () => {
    const alice = world.createUser({ username: 'alice', name: 'Alice <A>' });
    const first = world.createPost(alice.id, 'first <b>post</b>', NOW - 120_000);
    const second = world.createPost(alice.id, 'second post', NOW - 60_000);
    const response = await app.inject({ url: '/x-sim/ALICE' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('Alice &lt;A&gt; <span class="handle">@alice</span>');
    const links = [...response.body.matchAll(/href="(alice\/status\/\d+)">([^<]*(?:&lt;[^<]*)*)</g)].map(
      (m) => m[1],
    );
    expect(links).toEqual([`alice/status/${second.id}`, `alice/status/${first.id}`]);
    expect(response.body).toContain('first &lt;b&gt;post&lt;/b&gt;');
    expect(response.body).not.toMatch(/<script|\sstyle=/);
  });

  it('is a 404 page for an unknown account', async () => {
    const response = await app.inject({ url: '/x-sim/nobody' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('This account doesn’t exist');
  });
});
