import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { demoState, saveDemoProgress } from './demo-state.service';
import { totalsStamp } from './totals.repository';
import { followDemoOrigin } from './demo-origin';

const first = 'http://localhost:3000/x-sim';
const moved = 'http://127.0.0.1:4100/x-sim';
const now = new Date('2026-11-24T12:00:00Z');

describe.each(testDatabaseKinds())('the demo on a new origin (%s)', (kind) => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  const avatars = async () => ({
    authors: Object.fromEntries(
      (await database.db.selectFrom('authors').select(['id', 'avatar_url']).orderBy('id').execute()).map(
        (r) => [r.id, r.avatar_url],
      ),
    ),
    accounts: (await database.db.selectFrom('accounts').select('avatar_url').execute()).map(
      (r) => r.avatar_url,
    ),
  });

  it('keeps the base it serves from, and moves the avatar links of the base before to the new one, once', async () => {
    const db = database.db;
    const fresh = await demoState(db, now.getTime());
    expect(fresh.avatarBase).toBeUndefined();
    // The first start with the base kept: nothing to move from (a demo of an earlier version keeps its links).
    const onFirst = await followDemoOrigin(db, fresh, first, now);
    expect(onFirst).toEqual({ ...fresh, avatarBase: first });
    await saveDemoProgress(db, { ...onFirst, simulatedAt: now.getTime() });
    expect(await demoState(db, now.getTime())).toEqual({ ...onFirst, simulatedAt: now.getTime() });

    const author = (id: string, avatar: string | null) => ({
      id,
      handle: `author${id}`,
      display_name: `Author ${id}`,
      avatar_url: avatar,
      first_tracked_at: now,
      updated_at: now,
    });
    await db
      .insertInto('authors')
      .values([
        author('1', `${first}/avatars/1.svg`),
        author('2', 'https://pbs.twimg.com/profile_images/2/a.jpg'),
        author('3', null),
        // Same host, another port: not under the base, left alone.
        author('4', 'http://localhost:30001/x-sim/avatars/4.svg'),
      ])
      .execute();
    await db
      .insertInto('accounts')
      .values({
        network_user_id: '1',
        handle: 'author1',
        avatar_url: `${first}/avatars/1.svg`,
        network_created_at: now,
        followers: 10,
        access_token: null,
        refresh_token: null,
        token_expires_at: null,
        scopes: 'tweet.read users.read',
        linked_at: now,
        updated_at: now,
      })
      .execute();
    const stampBefore = await totalsStamp(db);

    const restarted = await demoState(db, now.getTime());
    const onMoved = await followDemoOrigin(db, restarted, moved, now);
    expect(onMoved).toEqual({ ...restarted, avatarBase: moved });
    expect(await avatars()).toEqual({
      authors: {
        '1': `${moved}/avatars/1.svg`,
        '2': 'https://pbs.twimg.com/profile_images/2/a.jpg',
        '3': null,
        '4': 'http://localhost:30001/x-sim/avatars/4.svg',
      },
      accounts: [`${moved}/avatars/1.svg`],
    });
    // Cached leaderboard pages carry the old links: the stamp they follow moved.
    expect(Number((await totalsStamp(db)).version)).toBeGreaterThan(Number(stampBefore.version));
    expect(await demoState(db, now.getTime())).toEqual(onMoved);

    // The same base again: nothing moves, the stamp stays.
    const stampAfter = await totalsStamp(db);
    expect(await followDemoOrigin(db, onMoved, moved, now)).toBe(onMoved);
    expect(await totalsStamp(db)).toEqual(stampAfter);
  });
});
