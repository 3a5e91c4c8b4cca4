import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postsResponseSchema } from '@manaboard/contract';
import { loadConfig } from '../../config/config';
import { startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';

const START = Date.parse('2026-11-18T12:00:00Z');

describe.each(testDatabaseKinds())('post links in simulation mode (%s)', (kind) => {
  let h: ManaHarness;
  beforeAll(async () => {
    const world = new World(START);
    const wren = world.createUser({ username: 'wren_sky', name: 'Wren Sky' });
    const post = world.createPost(wren.id, 'Climbing the #ManaBoard today', START - 3_600_000);
    world.addOrganic(post.id, { likes: 12, reposts: 3 });
    h = await startManaHarness(kind, world);
    await h.worker.runCycle();
  }, 180_000);
  afterAll(() => h.close());

  it('point to the page the simulation serves for the post, which shows its text, author and metrics', async () => {
    const posts = postsResponseSchema.parse((await h.get('/api/posts')).body).data;
    expect(posts).toHaveLength(1);
    const url = new URL(posts[0]?.url ?? '');
    expect(url.origin).toBe(loadConfig({}).publicOrigin);
    expect(url.pathname).toMatch(/^\/x-sim\/wren_sky\/status\/\d+$/);
    expect(url.hostname).not.toBe('x.com');
    const page = await h.app.inject({ url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Climbing the #ManaBoard today');
    expect(page.body).toContain('Wren Sky <span class="handle">@wren_sky</span>');
    expect(page.body).toContain('<dt>Likes</dt><dd>12</dd>');
    expect(page.body).toContain('<dt>Reposts</dt><dd>3</dd>');
  });

  it('point to x.com when real X is configured', () => {
    const real = loadConfig({ X_CLIENT_ID: 'id', X_CLIENT_SECRET: 'secret', X_BEARER_TOKEN: 'bearer' });
    expect(real.x.postUrlBase).toBe('https://x.com');
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://mana.example.org' }).x.postUrlBase).toBe(
      'https://mana.example.org/x-sim',
    );
  });
});
