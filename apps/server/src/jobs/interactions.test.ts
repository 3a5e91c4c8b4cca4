import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { linkMember, memberAccessTokenAt, startManaHarness, type ManaHarness } from '../test/mana-harness';
import { testDatabaseKinds } from '../test/test-database';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-18T12:00:00Z');

describe.each(testDatabaseKinds())('interaction Mana (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('linked members earn a once-only reward for reposting or replying to official posts, settled after 24 h', async () => {
    const world = new World(START - 2 * HOUR);
    const hq = world.createUser({ username: 'ManaboardHQ', official: true });
    const ann = world.createUser({ username: 'ann' });
    const bob = world.createUser({ username: 'bob' });
    const cat = world.createUser({ username: 'cat' });
    const official = world.createPost(hq.id, 'Season update #ManaBoard', START - HOUR);
    world.advance(2 * HOUR);
    world.repost(ann.id, official.id);
    world.reply(ann.id, official.id, 'great news');
    world.reply(ann.id, official.id, 'really great'); // a second reply earns nothing more
    world.repost(bob.id, official.id); // bob is not linked
    const undone = world.repost(cat.id, official.id);
    h = await startManaHarness(kind, world);
    await linkMember(h, ann, START - 10 * HOUR);
    await linkMember(h, cat, START - 10 * HOUR);

    await h.worker.runCycle();
    const pending = manaResponseSchema.parse((await h.get('/api/mana')).body).data;
    expect(pending.authors).toEqual([]); // pending lines earn nothing yet

    world.deletePost(undone.id);
    world.advance(12 * HOUR);
    await h.worker.runCycle();
    expect(manaResponseSchema.parse((await h.get('/api/mana')).body).data.authors).toEqual([]); // too early

    world.advance(13 * HOUR);
    await h.worker.runCycle();
    await h.worker.runCycle();
    const board = manaResponseSchema.parse((await h.get('/api/mana')).body).data;
    expect(board.authors.map((a) => [a.authorName, a.totalMana, a.totalPosts, a.linked])).toEqual([
      ['ann', 2 + 3, 0, true],
    ]);
  });

  it("reads likes with the member's own token: kept likes are credited, undone ones voided", async () => {
    const world = new World(START - 2 * HOUR);
    const hq = world.createUser({ username: 'ManaboardHQ', official: true });
    const ann = world.createUser({ username: 'ann' });
    const dan = world.createUser({ username: 'dan' });
    const official = world.createPost(hq.id, 'Season update #ManaBoard', START - HOUR);
    world.advance(2 * HOUR);
    world.like(ann.id, official.id);
    world.like(dan.id, official.id);
    const tokens = new Map<string, string>();
    h = await startManaHarness(kind, world, { memberTokens: tokens });
    const harness = h;
    const members = await Promise.all([ann, dan].map((user) => linkMember(harness, user, START - 10 * HOUR)));
    // Each member signs in at the simulated X; tokens live 2 h, so they sign in again before the re-check.
    const signIn = async () => {
      for (const [i, user] of [ann, dan].entries()) {
        const account = members[i]?.account;
        if (account) tokens.set(account.id, await memberAccessTokenAt(harness, user.username));
      }
    };
    await signIn();
    await h.worker.runCycle();
    world.unlike(dan.id, official.id);
    world.advance(25 * HOUR);
    await signIn();
    await h.worker.runCycle();
    const board = manaResponseSchema.parse((await h.get('/api/mana')).body).data;
    expect(board.authors.map((a) => [a.authorName, a.totalMana])).toEqual([['ann', 1]]);
  });
});
