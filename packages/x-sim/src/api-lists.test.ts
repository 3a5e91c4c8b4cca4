import { beforeEach, describe, expect, it } from 'vitest';
import { APP_BEARER, idsOf, signIn, simApp } from './test-support';
import { World } from './world';

const auth = { authorization: `Bearer ${APP_BEARER}` };
const NOW = Date.parse('2026-11-22T12:00:00Z');
const MINUTE = 60_000;

describe('fields, expansions and list endpoints', () => {
  let world: World;
  let sim: Awaited<ReturnType<typeof simApp>>;
  const get = (url: string, headers = auth) => sim.app.inject({ url, headers });

  beforeEach(async () => {
    world = new World(NOW - 60 * MINUTE);
    sim = await simApp(world, { rateLimitScale: Infinity });
  });

  it('expands authors, referenced posts and mentions into includes, with entities in code points', async () => {
    const hq = world.createUser({ username: 'ManaHQ' });
    const ann = world.createUser({ username: 'ann' });
    const official = world.createPost(hq.id, 'Season two #ManaBoard');
    const quote = world.quote(ann.id, official.id, '🎉 yes @ManaHQ #ManaBoard');
    world.advance(60 * MINUTE);
    const body = (
      await get(
        `/2/tweets?ids=${quote.id}&tweet.fields=entities,referenced_tweets,author_id,created_at&expansions=author_id,referenced_tweets.id,referenced_tweets.id.author_id&user.fields=created_at`,
      )
    ).json();
    expect(body.data[0]).toMatchObject({
      id: quote.id,
      author_id: ann.id,
      referenced_tweets: [{ type: 'quoted', id: official.id }],
      entities: {
        mentions: [{ start: 6, end: 13, username: 'ManaHQ', id: hq.id }],
        hashtags: [{ start: 14, end: 24, tag: 'ManaBoard' }],
      },
    });
    expect(body.includes.tweets.map((t: { id: string }) => t.id)).toEqual([official.id]);
    expect(body.includes.users.map((u: { username: string }) => u.username)).toEqual(['ann', 'ManaHQ']);
    expect(body.includes.users[0].created_at).toMatch(/Z$/);
  });

  it('pages reposters and quotes, newest first, and reports hidden posts as errors', async () => {
    const hq = world.createUser({ username: 'ManaHQ' });
    const official = world.createPost(hq.id, 'Season two');
    const fans = Array.from({ length: 12 }, (_, i) => world.createUser({ username: `fan${i}` }));
    for (const [i, fan] of fans.entries()) {
      world.repost(fan.id, official.id, world.now() + i * MINUTE);
      world.quote(fan.id, official.id, `quote ${i}`, world.now() + i * MINUTE);
    }
    world.advance(30 * MINUTE);
    const reposters = (await get(`/2/tweets/${official.id}/retweeted_by?max_results=5`)).json();
    expect(reposters.data.map((u: { username: string }) => u.username)).toEqual([
      'fan11',
      'fan10',
      'fan9',
      'fan8',
      'fan7',
    ]);
    const seen: string[] = [];
    let token = '';
    do {
      const page = (
        await get(
          `/2/tweets/${official.id}/quote_tweets?max_results=10${token ? `&pagination_token=${token}` : ''}`,
        )
      ).json();
      seen.push(...idsOf(page));
      token = page.meta.next_token ?? '';
    } while (token);
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    world.protectUser(hq.id);
    const hidden = (await get(`/2/tweets/${official.id}/retweeted_by`)).json();
    expect(hidden.errors[0].type).toBe('https://api.twitter.com/2/problems/not-authorized-for-resource');
    world.deletePost(official.id);
    expect((await get(`/2/tweets/${official.id}/quote_tweets`)).json().errors[0].title).toBe(
      'Not Found Error',
    );
  });

  it('lists a member’s likes, latest like first, in pages, under per-user limits', async () => {
    const ann = world.createUser({ username: 'ann' });
    const posts = Array.from({ length: 15 }, (_, i) => world.createPost(ann.id, `post ${i}`));
    for (const [i, post] of posts.entries()) world.like(ann.id, post.id, world.now() + (15 - i) * MINUTE);
    world.advance(30 * MINUTE);
    const { tokens } = await signIn(sim.app, 'ann');
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const first = await get(`/2/users/${ann.id}/liked_tweets?max_results=10`, headers);
    expect(idsOf(first.json())).toEqual(posts.slice(0, 10).map((p) => p.id));
    const second = (
      await get(
        `/2/users/${ann.id}/liked_tweets?max_results=10&pagination_token=${first.json().meta.next_token}`,
        headers,
      )
    ).json();
    expect(idsOf(second)).toEqual(posts.slice(10).map((p) => p.id));
    expect(second.meta.next_token).toBeUndefined();

    const limited = await simApp(world, { rateLimitScale: 1 });
    const own = (await signIn(limited.app, 'ann')).tokens;
    const search = await limited.app.inject({
      url: '/2/tweets/search/recent?query=post',
      headers: { authorization: `Bearer ${own.access_token}` },
    });
    expect(search.headers['x-rate-limit-limit']).toBe('300');
  });

  it('refuses fields X does not know, accepts those it knows but the simulation has no data for', async () => {
    expect((await get('/2/users/by/username/ann?user.fields=nonsense')).statusCode).toBe(400);
    expect((await get('/2/tweets/search/recent?query=a&expansions=pinned_tweet_id')).statusCode).toBe(400);
    const ok = await get(
      '/2/tweets/search/recent?query=a&tweet.fields=context_annotations,geo&place.fields=name',
    );
    expect(ok.statusCode).toBe(200);
  });

  it('refuses pagination tokens that are not its own, or of another endpoint', async () => {
    const token = (v: unknown) => Buffer.from(JSON.stringify({ v })).toString('base64url');
    const hq = world.createUser({ username: 'ManaHQ' });
    const post = world.createPost(hq.id, 'hello');
    world.advance(MINUTE);
    const cases = [
      `/2/tweets/search/recent?query=a&pagination_token=${token(5)}`,
      `/2/tweets/search/recent?query=a&next_token=${token('abc')}`,
      `/2/tweets/search/recent?query=a&pagination_token=nonsense`,
      `/2/tweets/${post.id}/quote_tweets?pagination_token=${token(post.id)}`,
      `/2/tweets/${post.id}/retweeted_by?pagination_token=${token(-10)}`,
      `/2/tweets/${post.id}/retweeted_by?pagination_token=${token(0.5)}`,
    ];
    for (const url of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors[0].message).toContain('is not valid');
    }
  });
});
