import type { Selectable } from 'kysely';
import type { AdminSessionsTable, Db } from '../../db/schema';

export type AdminSessionRow = Selectable<AdminSessionsTable>;

export async function insertSession(
  db: Db,
  row: { idHash: string; networkUserId: string; handle: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('admin_sessions')
    .values({
      id_hash: row.idHash,
      network_user_id: row.networkUserId,
      handle: row.handle,
      created_at: row.now,
      last_seen_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

export function findSession(db: Db, idHash: string): Promise<AdminSessionRow | undefined> {
  return db.selectFrom('admin_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export async function touchSession(db: Db, idHash: string, now: Date): Promise<void> {
  await db.updateTable('admin_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<boolean> {
  const result = await db.deleteFrom('admin_sessions').where('id_hash', '=', idHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Drops sessions past their absolute end or idle since before `idleBefore`. */
export async function deleteExpiredSessions(db: Db, now: Date, idleBefore: Date): Promise<void> {
  await db
    .deleteFrom('admin_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .execute();
}
