import { sql, type Selectable, type Transaction } from 'kysely';
import type { AccountsTable, Database, Db } from '../../db/schema';

export type AccountRow = Selectable<AccountsTable>;

/** What the network told us at a login, with the tokens already sealed. */
export type AccountLogin = {
  networkUserId: string;
  handle: string;
  avatarUrl: string | null;
  networkCreatedAt: Date | null;
  followers: number;
  sealedAccessToken: string;
  sealedRefreshToken: string | null;
  tokenExpiresAt: Date;
  scopes: string;
  now: Date;
};

/**
 * Inserts the account or, for a network user seen before (same stable id: a renamed handle is the same member),
 * refreshes what can change on the network (handle, avatar, anti-bot facts, tokens). `linked_at` keeps the first link: the ×3 multiplier counts from then.
 */
export async function upsertAccount(db: Db, login: AccountLogin): Promise<AccountRow> {
  const changing = {
    handle: login.handle,
    avatar_url: login.avatarUrl,
    network_created_at: login.networkCreatedAt,
    followers: login.followers,
    access_token: login.sealedAccessToken,
    refresh_token: login.sealedRefreshToken,
    token_expires_at: login.tokenExpiresAt,
    scopes: login.scopes,
    updated_at: login.now,
  };
  return db
    .insertInto('accounts')
    .values({ network_user_id: login.networkUserId, linked_at: login.now, ...changing })
    .onConflict((oc) => oc.column('network_user_id').doUpdateSet(changing))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The account of a network user, locked until the transaction ends (a login reads what it is about to replace). */
export async function lockAccountByNetworkUserId(
  trx: Transaction<Database>,
  networkUserId: string,
): Promise<AccountRow | undefined> {
  return trx
    .selectFrom('accounts')
    .selectAll()
    .where('network_user_id', '=', networkUserId)
    .forUpdate()
    .executeTakeFirst();
}

/** The account this browser is bound to, if any. */
export async function findAccountByBrowser(db: Db, browserHash: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('browser_links')
    .innerJoin('accounts', 'accounts.id', 'browser_links.account_id')
    .selectAll('accounts')
    .where('browser_links.browser_hash', '=', browserHash)
    .executeTakeFirst();
}

/**
 * The account currently holding a handle (case-insensitive) and bound to at least one browser. After a rename
 * at X two rows may share a stale handle; the most recently refreshed one wins.
 */
export async function findLinkedAccountByHandle(db: Db, handle: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(handle)`, '=', handle.toLowerCase())
    .where((eb) =>
      eb.exists(
        eb.selectFrom('browser_links').select('browser_hash').whereRef('account_id', '=', 'accounts.id'),
      ),
    )
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Locks account rows (in id order, so two transactions never wait on each other in a circle). */
export async function lockAccounts(db: Transaction<Database>, ids: string[]): Promise<void> {
  const sorted = [...new Set(ids)].sort((a, b) => Number(a) - Number(b));
  for (const id of sorted) {
    await db.selectFrom('accounts').select('id').where('id', '=', id).forUpdate().execute();
  }
}

/** Binds a browser to an account; returns the account it was bound to before, if another one. */
export async function bindBrowser(
  db: Db,
  browserHash: string,
  accountId: string,
  now: Date,
): Promise<string | undefined> {
  const before = await db
    .selectFrom('browser_links')
    .select('account_id')
    .where('browser_hash', '=', browserHash)
    .executeTakeFirst();
  await db
    .insertInto('browser_links')
    .values({ browser_hash: browserHash, account_id: accountId, linked_at: now })
    .onConflict((oc) => oc.column('browser_hash').doUpdateSet({ account_id: accountId, linked_at: now }))
    .execute();
  return before && before.account_id !== accountId ? before.account_id : undefined;
}

/** Removes this browser's binding; returns the account it was bound to. */
export async function unbindBrowser(db: Db, browserHash: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('browser_links')
    .where('browser_hash', '=', browserHash)
    .returning('account_id')
    .executeTakeFirst();
  return row?.account_id;
}

export async function countBrowsers(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('browser_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findAccountById(db: Db, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Stores rotated tokens (sealed) after a refresh. */
export async function updateTokens(
  db: Db,
  accountId: string,
  tokens: { sealedAccessToken: string; sealedRefreshToken: string | null; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({
      access_token: tokens.sealedAccessToken,
      refresh_token: tokens.sealedRefreshToken,
      token_expires_at: tokens.expiresAt,
      updated_at: tokens.now,
    })
    .where('id', '=', accountId)
    .execute();
}

/** Forgets an account's tokens (after the last browser unlinks; they are revoked at X too). */
export async function clearTokens(db: Db, accountId: string, now: Date): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ access_token: null, refresh_token: null, token_expires_at: null, updated_at: now })
    .where('id', '=', accountId)
    .execute();
}
