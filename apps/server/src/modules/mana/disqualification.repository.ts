import { sql } from 'kysely';
import type { Db } from '../../db/schema';

/** An author's disqualification state as the operator set it (migration 0014). */
export type AuthorStanding = {
  id: string;
  handle: string;
  disqualified: boolean;
  disqualified_reason: string | null;
  disqualified_by: string | null;
  disqualified_at: Date | null;
};

/** The author holding a handle (case-insensitive, a leading @ ignored); the most recently updated wins. */
export async function findAuthorByHandle(db: Db, handle: string): Promise<AuthorStanding | undefined> {
  return db
    .selectFrom('authors')
    .select(['id', 'handle', 'disqualified', 'disqualified_reason', 'disqualified_by', 'disqualified_at'])
    .where(sql<string>`lower(handle)`, '=', handle.replace(/^@/, '').toLowerCase())
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Sets an author's disqualification, and the linked account's when there is one (its referrals then stop
 * counting: a disqualified referee's credit is voided, a requalified one's restored). Returns the referrals
 * changed.
 */
export async function setDisqualified(db: Db, authorId: string, value: boolean): Promise<number> {
  await db
    .updateTable('authors')
    .set({ disqualified: value, totals_dirty: true })
    .where('id', '=', authorId)
    .execute();
  const account = await db
    .updateTable('accounts')
    .set({ disqualified: value })
    .where('network_user_id', '=', authorId)
    .returning('id')
    .executeTakeFirst();
  if (!account) return 0;
  const changed = await db
    .updateTable('referrals')
    .set({ status: value ? 'void' : 'credited' })
    .where('referee_account_id', '=', account.id)
    .where('status', '=', value ? 'credited' : 'void')
    .executeTakeFirst();
  return Number(changed.numUpdatedRows);
}

/** Records why, by whom and when an author was disqualified (null clears it on a requalification). */
export async function setDisqualificationNote(
  db: Db,
  authorId: string,
  note: { reason: string; by: string; at: Date } | null,
): Promise<void> {
  await db
    .updateTable('authors')
    .set({
      disqualified_reason: note?.reason ?? null,
      disqualified_by: note?.by ?? null,
      disqualified_at: note?.at ?? null,
    })
    .where('id', '=', authorId)
    .execute();
}
