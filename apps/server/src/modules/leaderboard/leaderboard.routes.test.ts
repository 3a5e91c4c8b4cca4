import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dailyLimitResponseSchema,
  dailyLimitUserResponseSchema,
  manaResponseSchema,
  postsResponseSchema,
  programmeResponseSchema,
} from '@manaboard/contract';
import { startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { setAuthorDisqualified } from '../mana/disqualification.service';
import { testDatabaseKinds } from '../../test/test-database';

const START = Date.parse('2026-11-18T12:00:00Z');

/** Authors whose handles test the search order: exact, prefix, substring, display name. */
function searchWorld() {
  const world = new World(START);
  const make = (username: string, name: string, likes: number) => {
    const user = world.createUser({ username, name });
    const post = world.createPost(user.id, `${username} says #ManaBoard`, START - likes * 60_000);
    world.addOrganic(post.id, { likes });
    return user;
  };
  const users = {
    bigRune: make('big_rune', 'Big', 50),
    rune: make('rune', 'Plain', 10),
    runeFox: make('rune_fox', 'Fox', 30),
    other: make('other', 'Rune Lover', 40),
    nobody: make('nobody_here', 'Nobody', 20),
  };
  return { world, users };
}

describe.each(testDatabaseKinds())('community leaderboard API (%s)', (kind) => {
  let h: ManaHarness;
  let ids: ReturnType<typeof searchWorld>['users'];
  beforeAll(async () => {
    const s = searchWorld();
    ids = s.users;
    h = await startManaHarness(kind, s.world);
    await h.worker.runCycle();
  });
  afterAll(() => h.close());

  it('ranks by Mana; a search finds handle and name, exact handle first, then prefix, then substring, with global ranks', async () => {
    const all = manaResponseSchema.parse((await h.get('/api/mana')).body).data;
    expect(all.authors.map((a) => [a.authorName, a.rank])).toEqual([
      ['big_rune', 1],
      ['other', 2],
      ['rune_fox', 3],
      ['nobody_here', 4],
      ['rune', 5],
    ]);
    const found = manaResponseSchema.parse((await h.get('/api/mana?search=%40RUNE&limit=10')).body).data;
    expect(found.authors.map((a) => [a.authorName, a.rank])).toEqual([
      ['rune', 5],
      ['rune_fox', 3],
      ['other', 2],
      ['big_rune', 1],
    ]);
    expect(found.total).toBe(4);
    const page = manaResponseSchema.parse((await h.get('/api/mana?limit=2&offset=1')).body).data;
    expect(page.authors.map((a) => a.authorName)).toEqual(['other', 'rune_fox']);
    expect(page.total).toBe(5);
    const none = manaResponseSchema.parse((await h.get('/api/mana?search=%25_%5C')).body).data;
    expect(none).toMatchObject({ authors: [], total: 0 });
    // Paged past the end, a search and the plain board still say how many there are.
    const beyond = manaResponseSchema.parse((await h.get('/api/mana?search=rune&offset=10')).body).data;
    expect(beyond).toMatchObject({ authors: [], total: 4 });
    const pastBoard = manaResponseSchema.parse((await h.get('/api/mana?offset=50')).body).data;
    expect(pastBoard).toMatchObject({ authors: [], total: 5 });
    expect(Date.parse(pastBoard.updatedAt ?? '')).toBe(Date.parse(all.updatedAt ?? ''));
    expect(all.updatedAt).not.toBeNull();
  });

  it('leaves a disqualified author out of rows and total at once, before the totals job reranks', async () => {
    await setAuthorDisqualified(h.database.db, {
      handle: 'other',
      disqualified: true,
      reason: 'bench of the total',
      actor: 'test',
    });
    try {
      const waiting = manaResponseSchema.parse((await h.get('/api/mana')).body).data;
      expect(waiting.authors.map((a) => [a.authorName, a.rank])).toEqual([
        ['big_rune', 1],
        ['rune_fox', 3],
        ['nobody_here', 4],
        ['rune', 5],
      ]);
      expect(waiting.total).toBe(4);
      const found = manaResponseSchema.parse((await h.get('/api/mana?search=rune')).body).data;
      expect(found.total).toBe(3);
      await h.worker.runCycle();
      const reranked = manaResponseSchema.parse((await h.get('/api/mana')).body).data;
      expect(reranked.authors.map((a) => [a.authorName, a.rank])).toEqual([
        ['big_rune', 1],
        ['rune_fox', 2],
        ['nobody_here', 3],
        ['rune', 4],
      ]);
      expect(reranked.total).toBe(4);
    } finally {
      await setAuthorDisqualified(h.database.db, {
        handle: 'other',
        disqualified: false,
        reason: 'restored for the other tests',
        actor: 'test',
      });
      await h.worker.runCycle();
    }
    expect(manaResponseSchema.parse((await h.get('/api/mana')).body).data.total).toBe(5);
  });

  it('serves posts by Mana with search on content or author, and the daily limits', async () => {
    const posts = postsResponseSchema.parse((await h.get('/api/posts?search=FOX')).body).data;
    expect(posts.map((p) => p.authorName)).toEqual(['rune_fox']);
    expect(
      dailyLimitResponseSchema.parse((await h.get('/api/daily-post-limit')).body).config.dailyLimit,
    ).toBe(5);
    const own = dailyLimitUserResponseSchema.parse(
      (await h.get(`/api/daily-post-limit/user/${ids.rune.id}`)).body,
    );
    expect(own.user).toMatchObject({ authorId: ids.rune.id, currentCount: 1, dailyLimit: 5 });
    const unknown = dailyLimitUserResponseSchema.parse((await h.get('/api/daily-post-limit/user/42')).body);
    expect(unknown.user.currentCount).toBe(0);
  });

  it('publishes the programme numbers, without the anti-bot gate', async () => {
    const rules = programmeResponseSchema.parse((await h.get('/api/programme')).body).data;
    expect(rules).toMatchObject({ version: 1, dailyLimit: 5, linkedMultiplier: 3, referralReward: 50 });
    expect(rules).not.toHaveProperty('minFollowers');
  });

  it('answers bad parameters with 400 and a clear message, never more than 100 rows', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/api/mana?limit=0', /limit must be at least 1/],
      ['/api/mana?limit=101', /limit must be at most 100/],
      ['/api/mana?limit=abc', /limit must be a whole number/],
      ['/api/mana?limit=1.5', /limit must be a whole number/],
      ['/api/posts?offset=-1', /offset must be at least 0/],
      ['/api/mana?weekly=maybe', /weekly must be true or false/],
      [`/api/mana?search=${'a'.repeat(101)}`, /search must be at most 100 characters/],
      ['/api/mana?limit=1&limit=2', /limit/],
      ['/api/daily-post-limit/user/%20bad%20', /authorId/],
    ];
    for (const [url, message] of cases) {
      const response = await h.get(url);
      expect(response.status, url).toBe(400);
      expect(response.body).toEqual({ success: false, error: expect.stringMatching(message) });
    }
  });

  it('sends Cache-Control and an ETag, and answers 304 to a matching If-None-Match', async () => {
    const first = await h.app.inject({ url: '/api/mana?weekly=true' });
    expect(first.headers['cache-control']).toMatch(/public, max-age=\d+/);
    const etag = String(first.headers.etag);
    expect(manaResponseSchema.parse(first.json()).data.period).toBe('2026-11-16');
    const again = await h.app.inject({
      url: '/api/mana?weekly=true',
      headers: { 'if-none-match': `W/${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});
