import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { manaResponseSchema, postsResponseSchema } from '@manaboard/contract';
import { linkMember, startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { activeRules, saveRules } from '../programme/programme.service';
import { changeRules, scoredRulesVersion } from './rescore.service';
import { rebuildAllTotals } from './totals.service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-18T12:00:00Z');

describe.each(testDatabaseKinds())('a rules change rescores what it affects (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('non-final posts, the daily-limit selection and pending lines take the new rules; final posts keep their Mana', async () => {
    const world = new World(START);
    const hq = world.createUser({ username: 'ManaboardHQ', official: true });
    const ann = world.createUser({ username: 'ann' });
    const bob = world.createUser({ username: 'bob' });
    const old = world.createPost(bob.id, 'early #ManaBoard', START - HOUR);
    world.addOrganic(old.id, { likes: 4 });
    h = await startManaHarness(kind, world);
    const harness = h;
    await linkMember(h, ann, START - 10 * HOUR);
    await h.worker.runCycle();
    world.advance(8 * DAY); // bob's post leaves the refresh window: its Mana becomes final
    await h.worker.runCycle();

    const now = world.now();
    const official = world.createPost(hq.id, 'Season two #ManaBoard', now - 30 * 60_000);
    for (let i = 0; i < 7; i++) {
      const post = world.createPost(ann.id, `#ManaBoard take ${i}`, now - 10 * 60_000 + i * 60_000);
      world.addOrganic(post.id, { likes: 1 });
    }
    world.repost(ann.id, official.id);
    world.advance(60_000);
    await h.worker.runCycle();

    const board = async () =>
      manaResponseSchema
        .parse((await harness.get('/api/mana?limit=100')).body)
        .data.authors.map((a) => [a.authorName, a.rank, a.totalMana]);
    const overLimit = async () =>
      postsResponseSchema
        .parse((await harness.get('/api/posts?limit=100')).body)
        .data.filter((p) => p.overDailyLimit).length;
    const pending = () =>
      harness.database.db
        .selectFrom('interactions')
        .select(['reward', 'detected_at', 'check_after', 'settle_by', 'status'])
        .executeTakeFirstOrThrow();
    // Linked ann: ×3 on her first 5 posts of the day, 1 like each; bob's final post: 4 likes.
    expect(await board()).toEqual([
      ['ann', 1, 5 * 1 * 3],
      ['bob', 2, 4],
    ]);
    expect(await overLimit()).toBe(2);
    expect(await pending()).toMatchObject({ reward: 2, status: 'pending' });
    // Each post's line names the rules it was computed with (the weekly ledger lists them).
    const versions = async () =>
      Object.fromEntries(
        (
          await harness.database.db
            .selectFrom('posts')
            .innerJoin('authors', 'authors.id', 'posts.author_id')
            .select(['authors.handle', 'posts.rules_version'])
            .distinct()
            .execute()
        ).map((r) => [r.handle, r.rules_version]),
      );
    expect(await versions()).toEqual({ ann: 1, bob: 1 });

    const { rules } = await activeRules(h.database.db);
    const change = await changeRules(
      h.database.db,
      {
        ...rules,
        dailyLimit: 6,
        weights: { ...rules.weights, like: 2 },
        interactionRewards: { ...rules.interactionRewards, repost: 5 },
        settleAfterHours: 12,
      },
      { source: 'test', actor: 'operator', now: new Date(world.now()) },
    );
    expect(change).toMatchObject({
      version: 2,
      unchanged: false,
      changedFields: ['weights', 'dailyLimit', 'interactionRewards', 'settleAfterHours'],
    });
    expect(change.rescore.repricedLines).toBe(1);
    // At once, without a worker run: ann's 6 posts × 2 × 3; bob's final post keeps its 4.
    expect(await board()).toEqual([
      ['ann', 1, 6 * 2 * 3],
      ['bob', 2, 4],
    ]);
    expect(await overLimit()).toBe(1);
    // Ann's open posts are now version 2's lines; bob's final post keeps the version that made it.
    expect(await versions()).toEqual({ ann: 2, bob: 1 });
    const line = await pending();
    expect(line.reward).toBe(5);
    expect(line.check_after.getTime() - line.detected_at.getTime()).toBe(12 * HOUR);
    expect(line.settle_by.getTime() - line.detected_at.getTime()).toBe(72 * HOUR);
    const audit = await h.database.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject'])
      .where('action', '=', 'programme.rules')
      .execute();
    expect(audit).toEqual([{ actor: 'operator', action: 'programme.rules', subject: 'v2' }]);

    // The re-check now comes 12 h after detection (it was 24 h), and credits the new reward.
    world.advance(13 * HOUR);
    await h.worker.runCycle();
    expect(await board()).toEqual([
      ['ann', 1, 36 + 5],
      ['bob', 2, 4],
    ]);
    const incremental = await board();
    await rebuildAllTotals(h.database.db, change, new Date(world.now()));
    expect(await board()).toEqual(incremental);

    // The same rules again store nothing.
    const same = await changeRules(h.database.db, change.rules, {
      source: 'test',
      actor: 'operator',
      now: new Date(world.now()),
    });
    expect(same).toMatchObject({ version: 2, unchanged: true, changedFields: [] });
  });

  it('rules stored by another process are applied by the worker’s next totals run', async () => {
    const world = new World(START);
    const dan = world.createUser({ username: 'dan' });
    for (let i = 0; i < 7; i++) {
      const post = world.createPost(dan.id, `#ManaBoard ${i}`, START - 60 * 60_000 + i * 60_000);
      world.addOrganic(post.id, { likes: 1, quotes: 1 });
    }
    h = await startManaHarness(kind, world);
    await h.worker.runCycle();
    const total = async () =>
      manaResponseSchema.parse((await h?.get('/api/mana'))?.body).data.authors[0]?.totalMana;
    expect(await total()).toBe(5 * (1 + 3));
    expect(await scoredRulesVersion(h.database.db)).toBe(1);

    const { rules } = await activeRules(h.database.db);
    await saveRules(
      h.database.db,
      { ...rules, dailyLimit: 7, weights: { ...rules.weights, quote: 10 } },
      'sql',
    );
    expect(await total()).toBe(20); // stored only: nothing rescored yet
    await h.worker.runJob('totals');
    expect(await total()).toBe(7 * (1 + 10));
    expect(await scoredRulesVersion(h.database.db)).toBe(2);
    const dailyLimit = await h.get('/api/daily-post-limit');
    expect(dailyLimit.body).toEqual({ success: true, config: { dailyLimit: 7 } });
  });
});
