import { beforeEach, describe, expect, it } from 'vitest';
import { APP_BEARER, idsOf, simApp } from './test-support';
import { World } from './world';

const auth = { authorization: `Bearer ${APP_BEARER}` };
const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the simulated X on its clock', () => {
  let world: World;
  let sim: Awaited<ReturnType<typeof simApp>>;
  let annId: string;

  beforeEach(async () => {
    world = new World(NOW);
    annId = world.createUser({ username: 'ann' }).id;
    sim = await simApp(world, { rateLimitScale: Infinity });
  });

  const get = (url: string) => sim.app.inject({ url, headers: auth });

  it('shows a post dated in the future only once the clock gets there', async () => {
    const later = world.createPost(annId, 'tomorrow #ManaBoard', NOW + DAY);
    const search = () => get('/2/tweets/search/recent?query=%23ManaBoard');
    expect((await search()).json().meta.result_count).toBe(0);
    expect((await get(`/2/tweets?ids=${later.id}`)).json().errors[0].title).toBe('Not Found Error');
    world.advance(DAY);
    expect(idsOf((await search()).json())).toEqual([later.id]);
  });

  it('grows outside engagement as a post ages, and never takes it back', async () => {
    const post = world.createPost(annId, 'growing #ManaBoard');
    world.addPotential(post.id, { likes: 1000, reposts: 100 });
    world.addOrganic(post.id, { likes: 5 });
    const likes = async () =>
      (await get(`/2/tweets?ids=${post.id}&tweet.fields=public_metrics`)).json().data[0].public_metrics
        .like_count as number;
    const seen = [await likes()];
    for (const step of [HOUR, 11 * HOUR, 2 * DAY, 5 * DAY]) {
      world.advance(step);
      seen.push(await likes());
    }
    expect(seen[0]).toBe(5);
    expect(seen[2]).toBe(5 + 500); // one half-life (12 h)
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen[4]).toBeGreaterThan(1000);
  });

  it('counts likes, reposts and replies of the world from their own time on, and unlikes', async () => {
    const bob = world.createUser({ username: 'bob' });
    const post = world.createPost(annId, 'an official post');
    world.like(bob.id, post.id, NOW + HOUR);
    world.repost(bob.id, post.id, NOW + 2 * HOUR);
    const metrics = async () =>
      (await get(`/2/tweets?ids=${post.id}&tweet.fields=public_metrics`)).json().data[0].public_metrics;
    expect(await metrics()).toMatchObject({ like_count: 0, retweet_count: 0 });
    world.advance(3 * HOUR);
    expect(await metrics()).toMatchObject({ like_count: 1, retweet_count: 1 });
    world.unlike(bob.id, post.id);
    expect(await metrics()).toMatchObject({ like_count: 0 });
  });

  it('refuses since_id and start_time older than 7 days, and an end_time under 10 s old', async () => {
    const old = world.createPost(annId, 'old #ManaBoard', NOW - 8 * DAY);
    const cases = [
      [`since_id=${old.id}`, 'since_id'],
      [`start_time=${new Date(NOW - 8 * DAY).toISOString()}`, 'start_time'],
      [`end_time=${new Date(NOW - 5_000).toISOString()}`, 'end_time'],
      [
        `start_time=${new Date(NOW - DAY).toISOString()}&end_time=${new Date(NOW - 2 * DAY).toISOString()}`,
        'start_time',
      ],
    ];
    for (const [params, name] of cases) {
      const response = await get(`/2/tweets/search/recent?query=%23ManaBoard&${params}`);
      expect(response.statusCode, params).toBe(400);
      expect(Object.keys(response.json().errors[0].parameters)).toEqual([name]);
    }
  });

  it('honours end_time (exclusive) and until_id', async () => {
    const posts = [0, 1, 2, 3].map((h) => world.createPost(annId, `p${h} #ManaBoard`, NOW - (4 - h) * HOUR));
    const ids = (params: string) =>
      get(`/2/tweets/search/recent?query=%23ManaBoard&${params}`).then((r) => idsOf(r.json()));
    const at = (i: number) => new Date(posts[i]?.createdAt ?? 0).toISOString();
    expect(await ids(`end_time=${at(2)}`)).toEqual([posts[1]?.id, posts[0]?.id]);
    expect(await ids(`until_id=${posts[2]?.id}&since_id=${posts[0]?.id}`)).toEqual([posts[1]?.id]);
  });

  it('sends the endpoint window of the app, its reset in epoch seconds of the simulated clock', async () => {
    const limited = await simApp(world, { rateLimitScale: 1 });
    const response = await limited.app.inject({ url: '/2/tweets/search/recent?query=x', headers: auth });
    expect(response.headers['x-rate-limit-limit']).toBe('450');
    expect(response.headers['x-rate-limit-reset']).toBe(String((NOW + 15 * 60_000) / 1000));
  });

  it('scales limits and windows for fast tests', async () => {
    const tiny = await simApp(world, { rateLimitScale: 2 / 450, windowMs: 60_000 });
    const call = () => tiny.app.inject({ url: '/2/tweets/search/recent?query=x', headers: auth });
    expect([(await call()).statusCode, (await call()).statusCode]).toEqual([200, 200]);
    const spent = await call();
    expect(spent.statusCode).toBe(429);
    expect(spent.headers['x-rate-limit-limit']).toBe('2');
    expect(spent.headers['x-rate-limit-reset']).toBe(String((NOW + 60_000) / 1000));
    world.advance(59_999);
    expect((await call()).statusCode).toBe(429);
    world.advance(1);
    expect((await call()).statusCode).toBe(200);
  });
});
