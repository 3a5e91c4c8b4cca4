import { beforeEach, describe, expect, it } from 'vitest';
import { APP_BEARER, signIn, simApp } from './test-support';
import { World } from './world';

const auth = { authorization: `Bearer ${APP_BEARER}` };
const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;

describe('simulated X API v2', () => {
  let world: World;
  let sim: Awaited<ReturnType<typeof simApp>>;
  let ids: Record<string, string>;

  beforeEach(async () => {
    world = new World(NOW - 10 * 24 * HOUR);
    const hq = world.createUser({ username: 'ManaHQ', official: true });
    const ann = world.createUser({ username: 'ann', followers: 50 });
    const bob = world.createUser({ username: 'bob' });
    const old = world.createPost(ann.id, 'ancient #ManaBoard post'); // 10 days old: outside search
    world.advance(5 * 24 * HOUR);
    const official = world.createPost(hq.id, 'Season two starts #ManaBoard');
    world.advance(HOUR);
    const tagged = world.createPost(ann.id, 'I love #ManaBoard and the cards');
    world.advance(HOUR);
    const keyword = world.createPost(bob.id, 'manaboard leaderboard is fun');
    world.advance(HOUR);
    const mention = world.createPost(bob.id, 'hey @ManaHQ when rewards?');
    const offTopic = world.createPost(ann.id, 'coffee first');
    const quote = world.quote(bob.id, official.id, 'quoting #ManaBoard');
    const retweet = world.repost(ann.id, official.id);
    const reply = world.reply(ann.id, official.id, 'count me in #ManaBoard');
    world.like(ann.id, official.id);
    world.like(bob.id, official.id);
    world.advance(NOW - world.now());
    ids = {
      hq: hq.id,
      ann: ann.id,
      bob: bob.id,
      old: old.id,
      official: official.id,
      tagged: tagged.id,
      keyword: keyword.id,
      mention: mention.id,
      offTopic: offTopic.id,
      quote: quote.id,
      retweet: retweet.id,
      reply: reply.id,
    };
    sim = await simApp(world, { rateLimitScale: 1 });
  });

  const search = (query: string, extra = '') =>
    sim.app.inject({
      url: `/2/tweets/search/recent?query=${encodeURIComponent(query)}&max_results=100${extra}`,
      headers: auth,
    });
  const found = async (query: string, extra = '') =>
    ((await search(query, extra)).json().data ?? []).map((t: { id: string }) => t.id);

  it('searches the last 7 days, newest first, with the operators the programme uses', async () => {
    expect(await found('#ManaBoard')).toEqual([ids.reply, ids.retweet, ids.quote, ids.tagged, ids.official]);
    expect(await found('#ManaBoard -is:retweet')).toEqual([ids.reply, ids.quote, ids.tagged, ids.official]);
    expect(await found('manaboard')).toContain(ids.keyword);
    expect(await found('@ManaHQ -is:retweet')).toEqual([ids.mention]);
    expect(await found('from:bob')).toEqual([ids.quote, ids.mention, ids.keyword]);
    expect(await found(`conversation_id:${ids.official} is:reply`)).toEqual([ids.reply]);
    expect(await found('"love #ManaBoard" OR (from:bob rewards)')).toEqual([ids.mention, ids.tagged]);
    expect(await found('coffee')).toEqual([ids.offTopic]);
  });

  it('resumes after since_id and honours start_time', async () => {
    expect(await found('#ManaBoard -is:retweet', `&since_id=${ids.tagged}`)).toEqual([ids.reply, ids.quote]);
    const start = new Date(world.post(ids.keyword ?? '')?.createdAt ?? 0).toISOString();
    expect(await found('#ManaBoard', `&start_time=${start}`)).toEqual([ids.reply, ids.retweet, ids.quote]);
  });

  it('answers X-shaped 400s for bad parameters', async () => {
    const cases = [
      '/2/tweets/search/recent?query=x&max_results=5',
      '/2/tweets/search/recent?query=',
      '/2/tweets/search/recent?query=(unbalanced',
      '/2/tweets/search/recent?query=x&bogus=1',
      '/2/tweets/search/recent?query=lang%3Aen',
      `/2/tweets/search/recent?query=x&start_time=${new Date(NOW - 8 * 24 * HOUR).toISOString()}`,
      '/2/tweets/search/recent?query=x&tweet.fields=nonsense',
      '/2/tweets?ids=abc',
      `/2/tweets?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
    ];
    for (const url of cases) {
      const response = await sim.app.inject({ url, headers: auth });
      expect(response.statusCode, url).toBe(400);
      const body = response.json();
      expect(body.title).toBe('Invalid Request');
      expect(body.errors[0].message).toEqual(expect.any(String));
    }
  });

  it('needs a valid bearer token', async () => {
    const none = await sim.app.inject({ url: '/2/tweets?ids=1' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({
      title: 'Unauthorized',
      type: 'about:blank',
      status: 401,
      detail: 'Unauthorized',
    });
    expect(
      (await sim.app.inject({ url: '/2/tweets?ids=1', headers: { authorization: 'Bearer nope' } }))
        .statusCode,
    ).toBe(401);
  });

  it('looks tweets up with metrics and reports deleted, protected and suspended ones as partial errors', async () => {
    const lookup = async () =>
      (
        await sim.app.inject({
          url: `/2/tweets?ids=${ids.official},${ids.tagged},${ids.keyword},999&tweet.fields=public_metrics`,
          headers: auth,
        })
      ).json();
    const first = await lookup();
    expect(first.data[0].public_metrics).toMatchObject({
      like_count: 2,
      retweet_count: 1,
      reply_count: 1,
      quote_count: 1,
    });
    world.deletePost(ids.tagged ?? '');
    world.protectUser(ids.bob ?? '');
    const second = await lookup();
    expect(second.data.map((t: { id: string }) => t.id)).toEqual([ids.official]);
    expect(
      second.errors.map((e: { resource_id: string; type: string }) => [
        e.resource_id,
        e.type.split('/').pop(),
      ]),
    ).toEqual([
      [ids.tagged, 'resource-not-found'],
      [ids.keyword, 'not-authorized-for-resource'],
      ['999', 'resource-not-found'],
    ]);
    world.suspendUser(ids.hq ?? '');
    expect((await lookup()).errors[0].detail).toContain('suspended');
  });

  it('lists reposters, quotes, and a member’s likes only with that member’s own token', async () => {
    const reposters = (
      await sim.app.inject({ url: `/2/tweets/${ids.official}/retweeted_by`, headers: auth })
    ).json();
    expect(reposters.data.map((u: { username: string }) => u.username)).toEqual(['ann']);
    const quotes = (
      await sim.app.inject({ url: `/2/tweets/${ids.official}/quote_tweets`, headers: auth })
    ).json();
    expect(quotes.data.map((t: { id: string }) => t.id)).toEqual([ids.quote]);

    const annTokens = (await signIn(sim.app, 'ann')).tokens;
    const likes = await sim.app.inject({
      url: `/2/users/${ids.ann}/liked_tweets`,
      headers: { authorization: `Bearer ${annTokens.access_token}` },
    });
    expect(likes.json().data.map((t: { id: string }) => t.id)).toEqual([ids.official]);
    expect(
      (
        await sim.app.inject({
          url: `/2/users/${ids.bob}/liked_tweets`,
          headers: { authorization: `Bearer ${annTokens.access_token}` },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await sim.app.inject({ url: `/2/users/${ids.ann}/liked_tweets`, headers: auth })).statusCode,
    ).toBe(403);
    const noLikeScope = (await signIn(sim.app, 'ann', 'tweet.read users.read')).tokens;
    expect(
      (
        await sim.app.inject({
          url: `/2/users/${ids.ann}/liked_tweets`,
          headers: { authorization: `Bearer ${noLikeScope.access_token}` },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('finds users by username and follows renames', async () => {
    world.rename(ids.ann ?? '', 'ann_v2');
    expect((await sim.app.inject({ url: '/2/users/by/username/ann_v2', headers: auth })).json().data.id).toBe(
      ids.ann,
    );
    const gone = (await sim.app.inject({ url: '/2/users/by/username/ann', headers: auth })).json();
    expect(gone.errors[0].title).toBe('Not Found Error');
    expect((await found('from:ann_v2')).length).toBeGreaterThan(0);
  });

  it('counts calls in X’s 15-minute windows and resets them', async () => {
    const small = await simApp(world, { rateLimitScale: 3 / 450 });
    const call = () => small.app.inject({ url: '/2/tweets/search/recent?query=coffee', headers: auth });
    const answers = [await call(), await call(), await call(), await call()];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-rate-limit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[3]?.json()).toEqual({
      title: 'Too Many Requests',
      detail: 'Too Many Requests',
      type: 'about:blank',
      status: 429,
    });
    const reset = Number(answers[3]?.headers['x-rate-limit-reset']);
    expect(reset * 1000 - NOW).toBe(15 * 60 * 1000);
    world.advance(15 * 60 * 1000);
    expect((await call()).statusCode).toBe(200);
  });

  it('injects 429 storms, 5xx and dropped connections on demand', async () => {
    sim.faults.rateLimitStorm('tweets', 2).serverErrors('search/recent', 1, 503);
    expect((await sim.app.inject({ url: `/2/tweets?ids=${ids.official}`, headers: auth })).statusCode).toBe(
      429,
    );
    expect((await sim.app.inject({ url: `/2/tweets?ids=${ids.official}`, headers: auth })).statusCode).toBe(
      429,
    );
    expect((await sim.app.inject({ url: `/2/tweets?ids=${ids.official}`, headers: auth })).statusCode).toBe(
      200,
    );
    expect((await search('coffee')).statusCode).toBe(503);
    expect((await search('coffee')).statusCode).toBe(200);
  });
});
