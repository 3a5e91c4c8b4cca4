import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo } from '../../test/migrate-to';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import type { DatabaseHandle } from '../database';
import { migrateToLatest } from '../migrate';

describe.each(testDatabaseKinds())('migration 0010 (network-neutral accounts) on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    handle = await openTestDatabase(kind, { migrate: false });
    db = handle.db as unknown as Kysely<unknown>;
    await migrateTo(db, '0008-leaderboard-indexes');
  });
  afterAll(async () => {
    await handle.close();
  });

  it('keeps every account, its browsers and referrals, under the new column names', async () => {
    const now = new Date('2026-11-01T00:00:00Z');
    await sql`
      insert into accounts (x_user_id, handle, avatar_url, x_created_at, followers, access_token, scopes,
                            linked_at, updated_at)
      values ('1001', 'ann', 'https://a.example/ann.png', ${new Date('2020-01-02T00:00:00Z')}, 12, 'sealed-1',
              'tweet.read', ${now}, ${now}),
             ('1002', 'bob', null, null, 0, null, '', ${now}, ${now})`.execute(db);
    const ids = await sql<{
      id: string;
      x_user_id: string;
    }>`select id, x_user_id from accounts order by x_user_id`
      .execute(db)
      .then((r) => r.rows);
    const [ann, bob] = ids;
    if (!ann || !bob) throw new Error('seed failed');
    await sql`insert into browser_links (browser_hash, account_id, linked_at) values ('b1', ${ann.id}, ${now})`.execute(
      db,
    );
    await sql`
      insert into referrals (referee_account_id, referrer_account_id, reward_mana, status, created_at)
      values (${bob.id}, ${ann.id}, 50, 'credited', ${now})`.execute(db);

    const outcome = await migrateToLatest(handle.db);
    expect(outcome.applied).toContain('0010-network-neutral-accounts');

    const after = await handle.db
      .selectFrom('accounts')
      .select([
        'id',
        'network_user_id',
        'handle',
        'avatar_url',
        'network_created_at',
        'followers',
        'access_token',
      ])
      .orderBy('network_user_id')
      .execute();
    expect(after).toEqual([
      {
        id: ann.id,
        network_user_id: '1001',
        handle: 'ann',
        avatar_url: 'https://a.example/ann.png',
        network_created_at: new Date('2020-01-02T00:00:00Z'),
        followers: 12,
        access_token: 'sealed-1',
      },
      {
        id: bob.id,
        network_user_id: '1002',
        handle: 'bob',
        avatar_url: null,
        network_created_at: null,
        followers: 0,
        access_token: null,
      },
    ]);
    const links = await handle.db
      .selectFrom('browser_links')
      .select(['browser_hash', 'account_id'])
      .execute();
    expect(links).toEqual([{ browser_hash: 'b1', account_id: ann.id }]);
    const referrals = await handle.db
      .selectFrom('referrals')
      .select(['referee_account_id', 'reward_mana'])
      .execute();
    expect(referrals).toEqual([{ referee_account_id: bob.id, reward_mana: 50 }]);
  });

  it('still refuses a second account with the same network id (the unique constraint moved with the column)', async () => {
    const now = new Date();
    await expect(
      handle.db
        .insertInto('accounts')
        .values({
          network_user_id: '1001',
          handle: 'ann2',
          followers: 0,
          scopes: '',
          linked_at: now,
          updated_at: now,
        })
        .execute(),
    ).rejects.toThrow(/accounts_network_user_id_key/);
  });
});
