import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_BEARER, idsOf, simApp } from './test-support';
import { World } from './world';

const auth = { authorization: `Bearer ${APP_BEARER}` };
const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('faults on demand', () => {
  let world: World;
  let sim: Awaited<ReturnType<typeof simApp>>;
  let ids: string[];

  beforeEach(async () => {
    world = new World(NOW - 3_600_000);
    const ann = world.createUser({ username: 'ann' });
    ids = ['one', 'two', 'three', 'four'].map((word) => world.createPost(ann.id, `${word} #ManaBoard`).id);
    world.advance(3_600_000);
    sim = await simApp(world);
  });
  afterEach(() => sim.app.close());

  const lookup = () => sim.app.inject({ url: `/2/tweets?ids=${ids.join(',')}`, headers: auth });
  const search = () => sim.app.inject({ url: '/2/tweets/search/recent?query=%23ManaBoard', headers: auth });

  it('answers a 429 storm with headers that say so, without spending the window', async () => {
    sim.faults.rateLimitStorm('tweets', 2);
    const stormed = [await lookup(), await lookup()];
    expect(stormed.map((r) => r.statusCode)).toEqual([429, 429]);
    expect(stormed[0]?.headers['x-rate-limit-remaining']).toBe('0');
    expect(stormed[0]?.json()).toMatchObject({ title: 'Too Many Requests', status: 429 });
    const after = await lookup();
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-rate-limit-remaining']).toBe('3499');
    expect(sim.faults.pending()).toBe(0);
  });

  it('fails with the 5xx asked for, for one endpoint or for all', async () => {
    sim.faults.serverErrors('search/recent', 1, 502).serverErrors('*', 2, 503);
    const first = await search();
    expect(first.statusCode).toBe(502);
    expect(first.json()).toEqual({
      title: 'Bad Gateway',
      detail: 'Bad Gateway',
      type: 'about:blank',
      status: 502,
    });
    expect((await lookup()).statusCode).toBe(503);
    expect((await search()).statusCode).toBe(503);
    expect((await search()).statusCode).toBe(200);
  });

  it('holds calls unanswered until released', async () => {
    sim.faults.holdAnswers('search/recent', 1);
    let answered = false;
    const held = search().then((r) => {
      answered = true;
      return r;
    });
    await sim.faults.whenHeld();
    expect(sim.faults.held()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    sim.faults.release();
    expect((await held).statusCode).toBe(200);
    expect(sim.faults.held()).toBe(0);
    expect((await search()).statusCode).toBe(200);
  });

  it('answers slowly', async () => {
    sim.faults.slowAnswers('tweets', 1, 120);
    const started = performance.now();
    expect((await lookup()).statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    const quick = performance.now();
    await lookup();
    expect(performance.now() - quick).toBeLessThan(110);
  });

  it('reports every second visible post as not found during a partial-errors fault', async () => {
    sim.faults.partialErrors('tweets', 1);
    const body = (await lookup()).json();
    expect(idsOf(body)).toEqual([ids[0], ids[2]]);
    expect(body.errors.map((e: { resource_id: string; title: string }) => [e.resource_id, e.title])).toEqual([
      [ids[1], 'Not Found Error'],
      [ids[3], 'Not Found Error'],
    ]);
    expect(idsOf((await lookup()).json())).toEqual(ids);
  });

  it('drops the connection without an answer', async () => {
    const address = await sim.app.listen({ port: 0, host: '127.0.0.1' });
    sim.faults.dropConnections('tweets', 1);
    const url = `${address}/2/tweets?ids=${ids[0]}`;
    await expect(fetch(url, { headers: auth })).rejects.toThrow();
    const next = await fetch(url, { headers: auth });
    expect(next.status).toBe(200);
  });
});
