import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { manaResponseSchema, postsResponseSchema } from '@manaboard/contract';
import { insertReferral } from '../referrals/referrals.repository';
import { linkMember, startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { setAuthorDisqualified } from './disqualification.service';

const START = Date.parse('2026-11-18T12:00:00Z');

describe.each(testDatabaseKinds())('disqualification (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('removes an author from the leaderboard and the grid, voids their referrer’s credit, audited and reversible', async () => {
    const world = new World(START);
    const ann = world.createUser({ username: 'ann' });
    const bob = world.createUser({ username: 'bob' });
    world.addOrganic(world.createPost(ann.id, '#ManaBoard one', START - 60_000).id, { likes: 4 });
    world.addOrganic(world.createPost(bob.id, '#ManaBoard two', START - 30_000).id, { likes: 2 });
    h = await startManaHarness(kind, world);
    const { account: annAccount } = await linkMember(h, ann, START - 3_600_000);
    const { account: bobAccount } = await linkMember(h, bob, START - 3_600_000);
    await insertReferral(h.database.db, {
      refereeAccountId: annAccount.id,
      referrerAccountId: bobAccount.id,
      rewardMana: 50,
      createdAt: new Date(START - 3_600_000),
    });
    await h.worker.runCycle();
    const names = async () =>
      manaResponseSchema
        .parse((await h?.get('/api/mana'))?.body)
        .data.authors.map((a) => [a.authorName, a.totalMana]);
    expect(await names()).toEqual([
      ['bob', 50 + 2 * 3],
      ['ann', 4 * 3],
    ]);

    const done = await setAuthorDisqualified(h.database.db, {
      handle: '@ANN',
      disqualified: true,
      reason: 'bot farm',
      actor: 'test',
      now: new Date(START),
    });
    expect(done).toMatchObject({ handle: 'ann', referralsChanged: 1 });
    // Off the (cached) board at once, before any totals run: every API process's cache hears of it.
    expect(await names()).toEqual([['bob', 50 + 2 * 3]]);
    await h.worker.runJob('totals');
    expect(await names()).toEqual([['bob', 6]]);
    const posts = postsResponseSchema.parse((await h.get('/api/posts')).body).data;
    expect(posts.map((p) => p.authorName)).toEqual(['bob']);
    const audit = await h.database.db.selectFrom('audit_log').selectAll().execute();
    const off = { disqualified: false, reason: null, by: null, at: null };
    const on = { disqualified: true, reason: 'bot farm', by: 'test', at: new Date(START).toISOString() };
    expect(audit.map((a) => [a.action, a.subject, a.details])).toEqual([
      [
        'author.disqualify',
        ann.id,
        { handle: 'ann', reason: 'bot farm', referralsChanged: 1, before: off, after: on },
      ],
    ]);
    const stored = () =>
      h!.database.db
        .selectFrom('authors')
        .select(['disqualified_reason', 'disqualified_by', 'disqualified_at'])
        .where('id', '=', ann.id)
        .executeTakeFirstOrThrow();
    expect(await stored()).toEqual({
      disqualified_reason: 'bot farm',
      disqualified_by: 'test',
      disqualified_at: new Date(START),
    });

    await setAuthorDisqualified(h.database.db, {
      handle: 'ann',
      disqualified: false,
      reason: 'appeal',
      actor: 'test',
    });
    await h.worker.runJob('totals');
    expect(await stored()).toEqual({
      disqualified_reason: null,
      disqualified_by: null,
      disqualified_at: null,
    });
    const requalified = await h.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'author.requalify')
      .executeTakeFirstOrThrow();
    expect(requalified.details).toMatchObject({ reason: 'appeal', before: on, after: off });
    expect(await names()).toEqual([
      ['bob', 56],
      ['ann', 12],
    ]);
    await expect(
      setAuthorDisqualified(h.database.db, {
        handle: 'nobody',
        disqualified: true,
        reason: 'x',
        actor: 'test',
      }),
    ).rejects.toThrow(/No author/);
  });
});
