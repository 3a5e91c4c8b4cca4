import { afterEach, describe, expect, it } from 'vitest';
import { World } from '@manaboard/x-sim';
import { manaResponseSchema } from '@manaboard/contract';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { bumpTotalsStamp } from '../mana/totals.repository';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

/** One author with an all-time row, written straight to the tables (what the totals job would leave). */
async function addRankedAuthor(t: TestApp, id: string, rank: number) {
  const at = new Date('2026-11-02T10:00:00Z');
  await t.database.db
    .insertInto('authors')
    .values({ id, handle: `h${id}`, display_name: `Name ${id}`, first_tracked_at: at, updated_at: at })
    .execute();
  await t.database.db
    .insertInto('mana_totals')
    .values({
      period: 'all',
      author_id: id,
      mana: 100 - rank,
      posts: 1,
      likes: 1,
      replies: 0,
      reposts: 0,
      quotes: 0,
      first_tracked_at: at,
      rank,
    })
    .execute();
  await bumpTotalsStamp(t.database.db, new Date());
}

describe.each(testDatabaseKinds())('LEADERBOARD_CACHE (%s)', (kind) => {
  it('off: every read sees the totals as they are now', async () => {
    const t = await buildTestApp(
      kind,
      { LOG_LEVEL: 'silent', LEADERBOARD_CACHE: 'off' },
      { world: new World(Date.now()) },
    );
    apps.push(t);
    const board = async () =>
      manaResponseSchema.parse((await t.app.inject({ url: '/api/mana' })).json()).data;
    expect((await board()).total).toBe(0);
    await addRankedAuthor(t, '9001', 1);
    const first = await board();
    expect(first.authors.map((a) => [a.authorId, a.rank])).toEqual([['9001', 1]]);
    expect(first.total).toBe(1);
    await addRankedAuthor(t, '9002', 2);
    expect((await board()).total).toBe(2);
  });
});
