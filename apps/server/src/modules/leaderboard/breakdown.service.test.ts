import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakdownResponseSchema, manaResponseSchema } from '@manaboard/contract';
import { linkMember, startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { markAuthorsDirty } from '../mana/authors.repository';
import { insertInteractions, settleInteraction } from '../mana/interactions.repository';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-18T12:00:00Z');

describe.each(testDatabaseKinds())('the Mana breakdown (%s)', (kind) => {
  let h: ManaHarness;
  let ann: { id: string; username: string };
  let browserId: string;
  beforeAll(async () => {
    const world = new World(START);
    ann = world.createUser({ username: 'ann' });
    world.addOrganic(world.createPost(ann.id, 'first #ManaBoard', START - 2 * HOUR).id, {
      likes: 10,
      replies: 2,
      reposts: 1,
      quotes: 1,
    });
    h = await startManaHarness(kind, world);
    await h.worker.runCycle();
    browserId = (await linkMember(h, ann, START - HOUR)).browserId;
    const line = (postId: string, kindOf: 'like' | 'reply' | 'repost', reward: number) => ({
      memberId: ann.id,
      postId,
      kind: kindOf,
      reward,
      detectedAt: new Date(START - HOUR),
      checkAfter: new Date(START + 23 * HOUR),
      settleBy: new Date(START + 71 * HOUR),
    });
    await insertInteractions(h.database.db, [
      line('900', 'like', 1),
      line('901', 'reply', 3),
      line('902', 'repost', 2),
    ]);
    const at = new Date(START - HOUR / 2);
    await settleInteraction(
      h.database.db,
      { memberId: ann.id, postId: '901', kind: 'reply' },
      { status: 'credited', at, note: null },
    );
    await settleInteraction(
      h.database.db,
      { memberId: ann.id, postId: '902', kind: 'repost' },
      { status: 'void', at, note: 'gone' },
    );
    await markAuthorsDirty(h.database.db, [ann.id]);
    await h.worker.runJob('totals');
  });
  afterAll(() => h.close());

  it('gives each post its counts with the weights, and interactions pending, credited or void with due dates', async () => {
    const response = await h.app.inject({
      url: `/api/mana/${ann.id}/breakdown`,
      headers: { 'x-user-id': browserId },
    });
    const data = breakdownResponseSchema.parse(response.json()).data;
    expect(data.weights).toEqual({ like: 1, reply: 2, repost: 2, quote: 3 });
    const post = data.lines.find((l) => l.type === 'post');
    expect(post).toMatchObject({ likes: 10, replies: 2, reposts: 1, quotes: 1, multiplier: 1, mana: 19 });
    const interactions = data.lines.filter((l) => l.type === 'interaction');
    expect(interactions.map((l) => [l.postId, l.status, l.mana, l.reward])).toEqual([
      ['900', 'pending', 0, 1],
      ['901', 'credited', 3, 3],
      ['902', 'void', 0, 2],
    ]);
    expect(interactions[0]).toMatchObject({
      at: new Date(START - HOUR).toISOString(),
      checkAfter: new Date(START + 23 * HOUR).toISOString(),
      settleBy: new Date(START + 71 * HOUR).toISOString(),
    });
    expect(interactions[2]?.at).toBe(new Date(START - HOUR / 2).toISOString());
    expect(data.totalMana).toBe(19 + 3);
  });

  it('sums to the leaderboard figure, all time and this week', async () => {
    for (const weekly of [false, true]) {
      const board = manaResponseSchema.parse((await h.get(`/api/mana?search=ann&weekly=${weekly}`)).body);
      const lines = breakdownResponseSchema.parse(
        (await h.get(`/api/mana/${ann.id}/breakdown?weekly=${weekly}`)).body,
      ).data;
      expect(lines.lines.reduce((sum, l) => sum + l.mana, 0)).toBe(lines.totalMana);
      expect(board.data.authors[0]?.totalMana).toBe(lines.totalMana);
    }
  });
});
