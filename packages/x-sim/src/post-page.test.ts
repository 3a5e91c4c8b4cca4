import Fastify from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { xSimPlugin } from './plugin';
import { APP_BEARER, TEST_CLIENT } from './test-support';
import { World } from './world';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('the page a post link opens on the simulated X', () => {
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

  it('shows the post text, its author and its metrics as HTML, escaped', async () => {
    const alice = world.createUser({ username: 'alice', name: 'Alice <A>', followers: 10 });
    const bob = world.createUser({ username: 'bob_2', followers: 10 });
    const post = world.createPost(alice.id, 'Earning #mana with <b>friends</b> & more', NOW - 60_000);
    world.like(bob.id, post.id);
    world.reply(bob.id, post.id, 'nice');
    const response = await app.inject({ url: `/x-sim/alice/status/${post.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const body = response.body;
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('Alice &lt;A&gt; <span class="handle">@alice</span>');
    expect(body).toContain('Earning #mana with &lt;b&gt;friends&lt;/b&gt; &amp; more');
    expect(body).toContain('<dt>Likes</dt><dd>1</dd>');
    expect(body).toContain('<dt>Replies</dt><dd>1</dd>');
    expect(body).not.toMatch(/<script|\sstyle=/);
    // Handles are case-insensitive on X.
    expect((await app.inject({ url: `/x-sim/ALICE/status/${post.id}` })).statusCode).toBe(200);
    // Its stylesheet resolves under the prefix.
    expect(body).toContain('href="../../assets/sign-in.css"');
    const css = await app.inject({ url: '/x-sim/assets/sign-in.css' });
    expect(css.body).toContain('.text{');
  });

  it('answers 404 for a wrong handle, an unknown, deleted or future post, and a protected author', async () => {
    const alice = world.createUser({ username: 'alice', followers: 10 });
    const shy = world.createUser({ username: 'shy', followers: 10 });
    world.protectUser(shy.id);
    const post = world.createPost(alice.id, 'hello', NOW - 1000);
    const later = world.createPost(alice.id, 'tomorrow', NOW + 86_400_000);
    const gone = world.createPost(alice.id, 'oops', NOW - 1000);
    world.deletePost(gone.id);
    const hidden = world.createPost(shy.id, 'secret', NOW - 1000);
    const urls = [
      `/x-sim/bob/status/${post.id}`,
      `/x-sim/alice/status/123456789`,
      `/x-sim/alice/status/not-a-number`,
      `/x-sim/alice/status/${later.id}`,
      `/x-sim/alice/status/${gone.id}`,
      `/x-sim/shy/status/${hidden.id}`,
    ];
    for (const url of urls) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('This post doesn’t exist');
      expect(response.body).not.toContain('hello');
    }
  });
});
