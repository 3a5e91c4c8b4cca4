import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { breakdownResponseSchema, manaResponseSchema } from '@manaboard/contract';
import { unbindBrowser } from '../modules/linking/accounts.repository';
import { insertReferral } from '../modules/referrals/referrals.repository';
import { linkMember, startManaHarness, type ManaHarness } from '../test/mana-harness';
import { testDatabaseKinds } from '../test/test-database';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-18T12:00:00Z');

async function totals(h: ManaHarness): Promise<Record<string, [number, number, boolean]>> {
  const data = manaResponseSchema.parse((await h.get('/api/mana?limit=100')).body).data;
  return Object.fromEntries(data.authors.map((a) => [a.authorName, [a.totalMana, a.totalPosts, a.linked]]));
}

describe.each(testDatabaseKinds())('linking and referrals in the ledger (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('triples posts from the moment of linking, credits referrers, and follows unlinking and disqualification', async () => {
    const world = new World(START);
    const ann = world.createUser({ username: 'ann' });
    const bob = world.createUser({ username: 'bob' });
    const carol = world.createUser({ username: 'carol' });
    world.addOrganic(world.createPost(ann.id, 'first #ManaBoard', START - 2 * HOUR).id, { likes: 10 });
    h = await startManaHarness(kind, world);
    await h.worker.runCycle();
    expect(await totals(h)).toEqual({ ann: [10, 1, false] });

    const annLink = await linkMember(h, ann, START - HOUR);
    world.addOrganic(world.createPost(ann.id, 'second #ManaBoard', START - 1000).id, { likes: 5 });
    const { account: referee } = await linkMember(h, bob, START - HOUR);
    const carolLink = await linkMember(h, carol, START - HOUR);
    const referrer = carolLink.account;
    await insertReferral(h.database.db, {
      refereeAccountId: referee.id,
      referrerAccountId: referrer.id,
      rewardMana: 50,
      createdAt: new Date(START - HOUR),
    });
    await h.worker.runCycle();
    expect(await totals(h)).toEqual({ carol: [50, 0, true], ann: [10 + 3 * 5, 2, true] });

    // The breakdown: lines summing to the total; referees named only to the member themself.
    const asCarol = await h.app.inject({
      url: `/api/mana/${carol.id}/breakdown`,
      headers: { 'x-user-id': carolLink.browserId },
    });
    expect(asCarol.headers['cache-control']).toBe('private, no-store');
    expect(breakdownResponseSchema.parse(asCarol.json()).data).toMatchObject({
      totalMana: 50,
      lines: [{ type: 'referral', refereeHandle: 'bob', count: 1, mana: 50 }],
    });
    const asVisitor = breakdownResponseSchema.parse(
      (await h.get(`/api/mana/${carol.id}/breakdown`)).body,
    ).data;
    expect(asVisitor.lines).toEqual([
      { type: 'referral', refereeHandle: null, count: 1, mana: 50, at: null },
    ]);
    const annLines = breakdownResponseSchema.parse(
      (await h.get(`/api/mana/${ann.id}/breakdown?weekly=true`)).body,
    ).data;
    expect(annLines.lines.map((l) => (l.type === 'post' ? [l.multiplier, l.mana] : l.type))).toEqual([
      [1, 10],
      [3, 15],
    ]);
    expect(annLines.totalMana).toBe(25);
    expect((await h.get('/api/mana/999/breakdown')).status).toBe(404);

    await unbindBrowser(h.database.db, annLink.browserHash);
    await h.database.db
      .updateTable('accounts')
      .set({ disqualified: true })
      .where('id', '=', referee.id)
      .execute();
    await h.worker.runJob('totals');
    // Carol's only line is gone: with nothing left to rank she leaves the board.
    expect(await totals(h)).toEqual({ ann: [15, 2, false] });
  });
});
