import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { rewardsExportSchema } from '@manaboard/contract/admin';
import { linkMember, startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { setAuthorDisqualified } from '../mana/disqualification.service';
import { insertReferral } from '../referrals/referrals.repository';
import { isoWeekOf } from './iso-week';
import { exportRewards } from './rewards-export.service';

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
// Wednesday of ISO week 2026-W45.
const START = Date.parse('2026-11-04T12:00:00Z');

describe.each(testDatabaseKinds())('rewards export (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('equals what the leaderboard showed for each past week, and for all time', async () => {
    const world = new World(START);
    const users = ['ann', 'bob', 'cat', 'dan', 'eve'].map((username) => world.createUser({ username }));
    const [ann, bob, cat, dan] = users as [
      (typeof users)[number],
      (typeof users)[number],
      (typeof users)[number],
      (typeof users)[number],
    ];
    const post = (user: { id: string }, likes: number, replies = 0) => {
      const created = world.createPost(user.id, `#ManaBoard ${likes}`, world.clock.now() - HOUR);
      world.addOrganic(created.id, { likes, replies });
    };
    h = await startManaHarness(kind, world);
    const harness = h;
    const weeklyBoard = async () =>
      manaResponseSchema.parse((await harness.get('/api/mana?weekly=true&limit=100')).body).data.authors;
    const shown = (authors: Awaited<ReturnType<typeof weeklyBoard>>) =>
      authors.map((a) => ({
        rank: a.rank,
        handle: a.authorName,
        networkUserId: a.authorId,
        mana: a.totalMana,
        posts: a.totalPosts,
      }));

    // Week 45: ann and bob post; ann links.
    post(ann, 5);
    post(bob, 3, 1);
    post(users[4]!, 2);
    const { account: annAccount } = await linkMember(h, ann, START - 2 * HOUR);
    await h.worker.runCycle();
    const seen = new Map<string, ReturnType<typeof shown>>();
    seen.set(isoWeekOf(new Date(world.clock.now())), shown(await weeklyBoard()));

    // Week 46: cat and dan post, bob links and is referred by ann (50 Mana to ann this week).
    world.clock.advance(WEEK);
    post(cat, 7);
    post(dan, 1);
    post(ann, 2);
    const { account: bobAccount } = await linkMember(h, bob, world.clock.now() - HOUR);
    await insertReferral(h.database.db, {
      refereeAccountId: bobAccount.id,
      referrerAccountId: annAccount.id,
      rewardMana: 50,
      createdAt: new Date(world.clock.now() - HOUR),
    });
    await h.worker.runCycle();
    const week46 = isoWeekOf(new Date(world.clock.now()));
    seen.set(week46, shown(await weeklyBoard()));

    // Week 47: dan is disqualified (out of every period's board), bob and cat post.
    world.clock.advance(WEEK);
    post(bob, 9);
    post(cat, 4, 2);
    await setAuthorDisqualified(h.database.db, {
      handle: 'dan',
      disqualified: true,
      reason: 'test',
      actor: 'op',
    });
    await h.worker.runCycle();
    seen.set(isoWeekOf(new Date(world.clock.now())), shown(await weeklyBoard()));

    // A week later still, nothing new: each past week exports as its board showed it.
    world.clock.advance(WEEK);
    await h.worker.runCycle();
    expect(seen.size).toBe(3);
    const now = new Date(world.clock.now());
    for (const [week, board] of seen) {
      expect(board.length).toBeGreaterThan(1);
      const exported = rewardsExportSchema.parse(await exportRewards(h.database.db, { period: week }, now));
      const fromBoard = week === '2026-W47' ? board : board.filter((r) => r.handle !== 'dan');
      // Dan's disqualification in week 47 takes him off the earlier weeks' boards too, ranks closing up.
      expect(exported.rows.map(({ referrals: _r, ...rest }) => rest)).toEqual(
        fromBoard.map((r, i) => ({ ...r, rank: i + 1 })),
      );
      // Ann posted in weeks 45 and 46 only; her referral counts in week 46, where its Mana is.
      const annRow = exported.rows.find((r) => r.handle === 'ann');
      expect(annRow?.referrals).toBe(week === week46 ? 1 : week === '2026-W47' ? undefined : 0);
    }
    const allBoard = manaResponseSchema.parse((await h.get('/api/mana?limit=100')).body).data.authors;
    const all = await exportRewards(h.database.db, { period: 'all' }, now);
    expect(all.rows.map(({ referrals: _r, ...rest }) => rest)).toEqual(shown(allBoard));
    expect(all.rows.map((r) => r.handle)).not.toContain('dan');
    expect(all.rows.find((r) => r.handle === 'ann')).toMatchObject({ referrals: 1 });
    expect((await exportRewards(h.database.db, { period: '2026-W40' }, now)).rows).toEqual([]);
  }, 240_000);
});
