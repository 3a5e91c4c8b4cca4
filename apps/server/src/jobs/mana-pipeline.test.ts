import { loadConfig } from '../config/config';
import { World, type SimPost } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { manaResponseSchema, postsResponseSchema, type ManaResponse } from '@manaboard/contract';
import { startManaHarness, type ManaHarness } from '../test/mana-harness';
import { testDatabaseKinds } from '../test/test-database';
import { rebuildAllTotals } from '../modules/mana/totals.service';
import { activeRules } from '../modules/programme/programme.service';
import { allStates } from '../modules/mana/ingest-state.repository';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Wednesday noon UTC: the ISO week started two and a half days earlier. */
const START = Date.parse('2026-11-18T12:00:00Z');

/** A small scripted world: three members posting about the programme, one off-topic, reposts and a quote. */
function scriptedWorld() {
  const world = new World(START);
  world.createUser({ username: 'ManaboardHQ', official: true, followers: 50_000 });
  const ann = world.createUser({ username: 'ann', name: 'Ann Arbor', followers: 40 });
  const bob = world.createUser({ username: 'bob', name: 'Bob Builder', followers: 30 });
  const cat = world.createUser({ username: 'cat', name: 'Cat Stevens', followers: 20 });
  const annPost = world.createPost(ann.id, 'I love #ManaBoard', START - 5 * HOUR);
  const bobPost = world.createPost(bob.id, 'manaboard is great, ask @ManaboardHQ', START - 4 * HOUR);
  world.createPost(cat.id, 'nothing to see here', START - 3 * HOUR);
  world.repost(bob.id, annPost.id, START - 2 * HOUR);
  const catQuote = world.quote(cat.id, annPost.id, 'so true #ManaBoard', START - HOUR);
  world.addOrganic(annPost.id, { likes: 10, replies: 2 });
  world.addOrganic(bobPost.id, { likes: 3 });
  world.addOrganic(catQuote.id, { likes: 1 });
  return { world, ann, bob, cat, annPost, bobPost, catQuote };
}

const manaOf = (world: World, post: SimPost) => {
  const m = world.metrics(post);
  return m.like_count + 2 * m.reply_count + 2 * m.retweet_count + 3 * m.quote_count;
};

async function leaderboard(h: ManaHarness, query = 'limit=100'): Promise<ManaResponse['data']> {
  const response = await h.get(`/api/mana?${query}`);
  expect(response.status).toBe(200);
  return manaResponseSchema.parse(response.body).data;
}

describe.each(testDatabaseKinds())('Mana pipeline (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('search → refresh → totals gives the leaderboard of DESIGN §4, and the same pages twice count once', async () => {
    const s = scriptedWorld();
    h = await startManaHarness(kind, s.world);
    await h.worker.runCycle();
    const board = await leaderboard(h);
    expect(board.authors.map((a) => a.authorName)).toEqual(['ann', 'bob', 'cat']);
    const [ann, bob, cat] = board.authors;
    expect(ann).toMatchObject({
      rank: 1,
      totalPosts: 1,
      totalMana: manaOf(s.world, s.annPost),
      linked: false,
    });
    expect(ann?.totalMana).toBe(10 + 2 * 2 + 2 * 1 + 3 * 1); // organic likes and replies, bob's repost, cat's quote
    expect(bob).toMatchObject({ rank: 2, totalMana: manaOf(s.world, s.bobPost) });
    expect(cat).toMatchObject({ rank: 3, totalPosts: 1, totalMana: manaOf(s.world, s.catQuote) });
    expect(board.total).toBe(3);

    // The same pages again (cursor and all) change nothing.
    await h.worker.runCycle();
    await h.worker.runCycle();
    expect(await leaderboard(h)).toEqual(board);

    const posts = postsResponseSchema.parse((await h.get('/api/posts?limit=10')).body).data;
    expect(posts.map((p) => p.id)).toEqual([s.annPost.id, s.bobPost.id, s.catQuote.id]);
    // With the simulated X a post links to the simulation's own page for it (issue 15 §6), not to x.com.
    const origin = loadConfig({ NODE_ENV: 'test' }).publicOrigin;
    expect(posts[0]?.url).toBe(`${origin}/x-sim/ann/status/${s.annPost.id}`);

    const weekly = await leaderboard(h, 'weekly=true&limit=100');
    expect(weekly.period).toBe('2026-11-16');
    expect(weekly.authors.map((a) => a.totalMana)).toEqual(board.authors.map((a) => a.totalMana));
  });

  it('refreshes metrics, stops counting deleted or protected posts, follows renames, and freezes final posts', async () => {
    const s = scriptedWorld();
    h = await startManaHarness(kind, s.world);
    await h.worker.runCycle();
    s.world.addOrganic(s.annPost.id, { likes: 5 });
    s.world.deletePost(s.bobPost.id);
    s.world.protectUser(s.cat.id);
    s.world.rename(s.ann.id, 'ann_v2');
    s.world.advance(HOUR);
    await h.worker.runCycle();
    let board = await leaderboard(h);
    expect(board.authors.map((a) => [a.authorName, a.totalMana])).toEqual([
      ['ann_v2', manaOf(s.world, s.annPost)],
      ['bob', 0],
      ['cat', 0],
    ]);
    expect(board.authors[1]?.totalPosts).toBe(0);

    // Past the window: one last read makes it final; later engagement no longer moves it.
    s.world.advance(8 * DAY);
    await h.worker.runCycle();
    board = await leaderboard(h);
    const finalMana = board.authors[0]?.totalMana;
    s.world.addOrganic(s.annPost.id, { likes: 100 });
    s.world.advance(HOUR);
    await h.worker.runCycle();
    expect((await leaderboard(h)).authors[0]?.totalMana).toBe(finalMana);
    const posts = postsResponseSchema.parse((await h.get('/api/posts')).body).data;
    expect(posts[0]).toMatchObject({ final: true, mana: finalMana });
  });

  it('the daily limit counts the first N posts of each UTC day, across midnight', async () => {
    const world = new World(START);
    const dan = world.createUser({ username: 'dan' });
    const midnight = Date.parse('2026-11-18T00:00:00Z');
    const made: SimPost[] = [];
    for (let i = 0; i < 7; i++)
      made.push(world.createPost(dan.id, `#ManaBoard take ${i}`, midnight - 2 * 60_000 + i * 60_000));
    for (const post of made) world.addOrganic(post.id, { likes: 1 });
    h = await startManaHarness(kind, world);
    await h.worker.runCycle();
    const posts = postsResponseSchema.parse((await h.get('/api/posts?limit=20')).body).data;
    const over = posts.filter((p) => p.overDailyLimit).map((p) => p.id);
    // Two posts before midnight (both count), five after: the first five count, none over; a 7th day-post would be.
    expect(over).toEqual([]);
    expect((await leaderboard(h)).authors[0]?.totalMana).toBe(7);
    for (let i = 0; i < 2; i++) world.createPost(dan.id, `#ManaBoard late ${i}`, START - 60_000 + i * 1000);
    world.advance(60_000);
    await h.worker.runCycle();
    const again = postsResponseSchema.parse((await h.get('/api/posts?limit=20')).body).data;
    expect(again.filter((p) => p.overDailyLimit)).toHaveLength(2);
    const limit = await h.get(`/api/daily-post-limit/user/${dan.id}`);
    expect(limit.body).toEqual({
      success: true,
      user: { authorId: dan.id, currentCount: 7, dailyLimit: 5, resetsAt: '2026-11-19T00:00:00.000Z' },
    });
  });

  it('rolls the weekly board over at Monday 00:00 UTC; a post counts in the week it was created', async () => {
    const s = scriptedWorld();
    h = await startManaHarness(kind, s.world);
    await h.worker.runCycle();
    s.world.clock.setTime(Date.parse('2026-11-23T00:00:00Z'));
    const late = s.world.createPost(s.bob.id, 'new week, #ManaBoard', Date.parse('2026-11-23T00:00:00Z'));
    s.world.addOrganic(late.id, { likes: 2 });
    s.world.advance(60_000);
    await h.worker.runCycle();
    const weekly = await leaderboard(h, 'weekly=true');
    expect(weekly.period).toBe('2026-11-23');
    expect(weekly.authors.map((a) => [a.authorName, a.rank, a.totalMana])).toEqual([['bob', 1, 2]]);
    const all = await leaderboard(h);
    expect(all.authors.find((a) => a.authorName === 'bob')?.totalPosts).toBe(2);
  });

  it('a 429 storm makes the worker wait for the reset and resume; incremental totals equal a rebuild', async () => {
    const s = scriptedWorld();
    h = await startManaHarness(kind, s.world);
    h.sim.faults.rateLimitStorm('tweets', 3).rateLimitStorm('search/recent', 2);
    const before = s.world.now();
    await h.worker.runCycle();
    expect(s.world.now()).toBeGreaterThan(before);
    const board = await leaderboard(h);
    expect(board.authors).toHaveLength(3);
    // It waited instead of failing: every job ran to success and the calls it spent are recorded.
    const states = await allStates(h.database.db);
    expect(states.filter((st) => st.last_error !== null)).toEqual([]);
    expect(states.find((st) => st.job === 'search')).toMatchObject({ last_run_at: expect.any(Date) });
    expect(states.find((st) => st.job === 'refresh')?.calls_spent).toBeGreaterThan(0);
    await rebuildAllTotals(h.database.db, await activeRules(h.database.db), new Date(s.world.now()));
    expect(await leaderboard(h)).toEqual({ ...board, updatedAt: (await leaderboard(h)).updatedAt });
  });
});
