import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { World } from '@manaboard/x-sim';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase } from '../../test/test-database';
import { startSimulatedX } from '../../test/simulated-x';
import { createXClient } from './x-client';
import { formatUsageReport, XBudget } from './x-budget';
import { XApiError } from './x-errors';
import { XHttp } from './x-http';
import { xTweetListSchema } from './x-schemas';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;

function smallWorld() {
  const world = new World(NOW - 2 * 24 * HOUR);
  const hq = world.createUser({ username: 'ManaHQ', official: true });
  const ann = world.createUser({ username: 'ann', followers: 40 });
  const posts = [];
  for (let i = 0; i < 25; i++) {
    posts.push(world.createPost(ann.id, `post ${i} about #ManaBoard`));
    world.advance(HOUR);
  }
  const official = world.createPost(hq.id, 'official #ManaBoard news');
  world.repost(ann.id, official.id);
  world.advance(NOW - world.now());
  return { world, ann, hq, posts, official };
}

describe('the X client against the simulated X', () => {
  let database: DatabaseHandle;
  let sim: Awaited<ReturnType<typeof startSimulatedX>>;
  let fixture: ReturnType<typeof smallWorld>;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(async () => {
    await sim?.close();
  });

  async function setup(options: { rateLimitScale?: number; cap?: number; db?: DatabaseHandle } = {}) {
    fixture = smallWorld();
    sim = await startSimulatedX(fixture.world, options);
    const config = { ...sim.config, monthlyReadCap: options.cap };
    return createXClient(config, (options.db ?? database).db, {
      clock: fixture.world.clock.asClientClock(),
      random: () => 0.5,
    });
  }

  it('pages through a search and maps posts and authors onto the port', async () => {
    const x = await setup();
    const ids: string[] = [];
    for await (const page of x.api.searchRecentPages({ query: '#ManaBoard -is:retweet', maxResults: 10 })) {
      ids.push(...(page.data ?? []).map((t) => t.id));
    }
    expect(ids).toHaveLength(26);
    expect(new Set(ids).size).toBe(26);
    const page = await x.network.findPosts(
      { type: 'matching', keywords: [], hashtags: ['ManaBoard'], mentions: [] },
      {},
    );
    expect(page.posts[0]).toMatchObject({
      id: fixture.official.id,
      kind: 'original',
      metrics: { reposts: 1 },
    });
    expect(page.authors.map((a) => a.handle).sort()).toEqual(['ManaHQ', 'ann']);
    // Simulated posts link to the simulation's page for them, which exists; x.com would not know them.
    expect(x.network.postUrl('ann', '123')).toBe(`${sim.address}/ann/status/123`);
  });

  it('reports deleted and protected posts instead of dropping them', async () => {
    const x = await setup();
    const [a, b] = fixture.posts;
    fixture.world.deletePost(a?.id ?? '');
    const other = fixture.world.createUser({ username: 'secretive' });
    const hidden = fixture.world.createPost(other.id, 'psst #ManaBoard');
    fixture.world.protectUser(other.id);
    const result = await x.network.readMetrics([a?.id ?? '', b?.id ?? '', hidden.id]);
    expect(result.posts.map((p) => p.id)).toEqual([b?.id]);
    expect(result.missing.map((m) => [m.id, m.reason])).toEqual([
      [a?.id, 'deleted'],
      [hidden.id, 'protected'],
    ]);
  });

  it('waits for the rate-limit reset when the window is spent, then resumes', async () => {
    const x = await setup({ rateLimitScale: 2 / 3500 });
    const id = fixture.posts[0]?.id ?? '';
    await x.api.lookupTweets([id]);
    await x.api.lookupTweets([id]);
    const before = fixture.world.now();
    const third = await x.api.lookupTweets([id]);
    expect(third.data?.[0]?.id).toBe(id);
    expect(fixture.world.now() - before).toBeGreaterThanOrEqual(15 * 60 * 1000);
  });

  it('sits out a 429 storm and retries 5xx and dropped connections with backoff', async () => {
    const x = await setup();
    const id = fixture.posts[1]?.id ?? '';
    sim.faults.rateLimitStorm('tweets', 3);
    expect((await x.api.lookupTweets([id])).data?.[0]?.id).toBe(id);
    sim.faults.serverErrors('tweets', 2, 503).dropConnections('tweets', 1);
    expect((await x.api.lookupTweets([id])).data?.[0]?.id).toBe(id);
    sim.faults.serverErrors('tweets', 10, 502);
    const error = await x.api.lookupTweets([id]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(XApiError);
    expect(error).toMatchObject({ endpoint: 'tweets', status: 502 });
  });

  it('retries a connection lost halfway through a body instead of taking the half for an answer', async () => {
    const x = await setup();
    const id = fixture.posts[2]?.id ?? '';
    sim.faults.cutBodies('tweets', 2);
    expect((await x.api.lookupTweets([id])).data?.[0]?.id).toBe(id);
    expect(sim.faults.pending()).toBe(0);
  });

  it('surfaces partial errors beside the data: every asked id comes back as a post or a missing one', async () => {
    const x = await setup();
    const ids = fixture.posts.slice(0, 6).map((p) => p.id);
    sim.faults.partialErrors('tweets', 1);
    const result = await x.network.readMetrics(ids);
    expect(result.missing.length).toBeGreaterThan(0);
    expect(result.posts.length).toBeGreaterThan(0);
    expect([...result.posts.map((p) => p.id), ...result.missing.map((m) => m.id)].sort()).toEqual(
      [...ids].sort(),
    );
  });

  it('pages reposters, quotes and likes through to the last page', async () => {
    const x = await setup();
    const { world, official } = fixture;
    for (let i = 0; i < 130; i++) {
      const fan = world.createUser({ username: `fan${i}` });
      world.repost(fan.id, official.id);
      if (i < 12) world.quote(fan.id, official.id, `quoting ${i} #ManaBoard`);
    }
    const reposters: string[] = [];
    for await (const page of x.api.retweetedByPages(official.id)) {
      reposters.push(...(page.data ?? []).map((u) => u.id));
    }
    expect(reposters).toHaveLength(131);
    expect(new Set(reposters).size).toBe(131);
    const quotes: string[] = [];
    for await (const page of x.api.quoteTweetsPages(official.id))
      quotes.push(...(page.data ?? []).map((t) => t.id));
    expect(quotes).toHaveLength(12);
  });

  it("surfaces X's own message for bad requests and a typed error for odd bodies", async () => {
    const x = await setup();
    const bad = await x.api.searchRecent({ query: '(unbalanced' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(XApiError);
    expect((bad as XApiError).status).toBe(400);
    expect((bad as XApiError).message).toContain('unbalanced parenthesis');

    const http = new XHttp({
      baseUrl: sim.address,
      timeoutMs: 2_000,
      clock: fixture.world.clock.asClientClock(),
    });
    const odd = await http
      .get('tweets', '/assets/sign-in.css', {}, 'token', xTweetListSchema, () => 0)
      .catch((e: unknown) => e);
    expect(odd).toMatchObject({ kind: 'invalid-body', endpoint: 'tweets' });
  });

  it('gives up on time-outs with a typed error', async () => {
    const x = await setup();
    const http = new XHttp({
      baseUrl: sim.address,
      timeoutMs: 100,
      clock: fixture.world.clock.asClientClock(),
      maxRetries: 1,
    });
    sim.faults.slowAnswers('tweets', 5, 400);
    const error = await http
      .get(
        'tweets',
        `/2/tweets`,
        { ids: fixture.posts[0]?.id },
        sim.config.bearerToken,
        xTweetListSchema,
        () => 0,
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', status: 0 });
    void x;
  });

  it('keeps a budget ledger and refuses calls past the monthly read cap', async () => {
    const own = await openTestDatabase('pglite');
    onTestFinished(() => own.close());
    const x = await setup({ cap: 30, db: own });
    await x.api.searchRecent({ query: '#ManaBoard', maxResults: 20 });
    await x.api.searchRecent({ query: '#ManaBoard', maxResults: 10 });
    const refused = await x.api
      .searchRecent({ query: '#ManaBoard', maxResults: 10 })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'budget' });
    const month = await x.budget.thisMonth();
    const search = month.lines.find((l) => l.endpoint === 'search/recent');
    expect(search).toMatchObject({ day: '2026-11-22', calls: 2, reads: 30 });
    expect(month.reads).toBe(30);
    expect(month.cap).toBe(30);
    const report = formatUsageReport(month);
    expect(report).toMatch(/search\/recent\s+2 calls, 30 reads, 0 failed/);
    expect(report).toContain('total: 30 reads of a cap of 30');
  });

  it('writes counted calls to the ledger together, unasked, and a restarted budget counts them against the cap', async () => {
    const own = await openTestDatabase('pglite');
    onTestFinished(() => own.close());
    const x = await setup({ cap: 30, db: own });
    await x.api.searchRecent({ query: '#ManaBoard', maxResults: 20 });
    await x.api.searchRecent({ query: '#ManaBoard', maxResults: 10 });
    // One line for both calls, written within about a second without flush() or thisMonth().
    await vi.waitFor(
      async () => {
        const rows = await own.db.selectFrom('x_api_usage').select(['endpoint', 'calls', 'reads']).execute();
        expect(rows).toEqual([{ endpoint: 'search/recent', calls: 2, reads: 30 }]);
      },
      { timeout: 5000, interval: 100 },
    );
    const restarted = new XBudget(own.db, 30, fixture.world.clock.asClientClock().now);
    await expect(restarted.beforeCall('search/recent')).rejects.toMatchObject({ kind: 'budget' });
  });
});
