import type { AdminConfig } from '../../config/config';
import type { Db } from '../../db/schema';
import { recordAudit } from '../audit/audit.repository';
import { adminActor, isAdminAccount } from './admin-accounts';
import { hashSessionId } from './admin-cookies';
import * as sessions from './admin-sessions.repository';

/** The signed-in admin of a request. */
export type AdminPrincipal = {
  handle: string;
  networkUserId: string;
  /** The session's id hash (CSRF tokens are bound to it). */
  sessionHash: string;
  expiresAt: Date;
  /** Who this is in the audit log. */
  actor: string;
};

export type SessionCheck =
  | { kind: 'none' }
  | { kind: 'expired' }
  | { kind: 'not_admin'; principal: AdminPrincipal }
  | { kind: 'admin'; principal: AdminPrincipal };

/** Idle-time writes are spared when the session was used this recently (one write a minute at most). */
const TOUCH_EVERY_MS = 60_000;

/**
 * The session behind a cookie value: none, expired (past its absolute end or idle too long: deleted now), an
 * account ADMIN_ACCOUNTS no longer names (the role is checked on every request, not only at sign-in), or an admin
 * (its idle clock restarted).
 */
export async function checkSession(
  db: Db,
  admin: AdminConfig,
  sessionId: string | undefined,
  now: Date,
): Promise<SessionCheck> {
  if (!sessionId) return { kind: 'none' };
  const idHash = hashSessionId(sessionId);
  const row = await sessions.findSession(db, idHash);
  if (!row) return { kind: 'none' };
  const idleSince = now.getTime() - row.last_seen_at.getTime();
  if (row.expires_at.getTime() <= now.getTime() || idleSince > admin.sessionIdleMs) {
    await sessions.deleteSession(db, idHash);
    return { kind: 'expired' };
  }
  const who = { handle: row.handle, networkUserId: row.network_user_id };
  const principal: AdminPrincipal = {
    ...who,
    sessionHash: idHash,
    expiresAt: row.expires_at,
    actor: adminActor(who),
  };
  if (!isAdminAccount(admin.accounts, who)) return { kind: 'not_admin', principal };
  if (idleSince >= TOUCH_EVERY_MS) await sessions.touchSession(db, idHash, now);
  return { kind: 'admin', principal };
}

/** Ends a session (sign out): deleted, so the cookie is worthless even if kept; audited. */
export async function signOut(db: Db, principal: AdminPrincipal): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sessions.deleteSession(trx, principal.sessionHash);
    await recordAudit(trx, {
      actor: principal.actor,
      action: 'admin.sign_out',
      subject: principal.networkUserId,
    });
  });
}
