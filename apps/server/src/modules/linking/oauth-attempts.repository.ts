import type { Selectable } from 'kysely';
import type { Db, OAuthAttemptsTable } from '../../db/schema';

export type OAuthAttemptRow = Selectable<OAuthAttemptsTable>;

export type NewOAuthAttempt = {
  state: string;
  codeVerifier: string;
  /** The member browser that started linking; null for a console sign-in. */
  browserHash: string | null;
  /** SHA-256 of the nonce cookie given to the starting browser. */
  nonceHash: string;
  referrerSlug: string | null;
  redirectAfter: string;
  createdAt: Date;
  expiresAt: Date;
  /** What the attempt is for (default: linking a member). */
  purpose?: OAuthPurpose;
};

/** One registered callback serves both: linking a member's account, and signing in to the operator console. */
export type OAuthPurpose = 'link' | 'admin';

export async function insertAttempt(db: Db, attempt: NewOAuthAttempt): Promise<void> {
  await db
    .insertInto('oauth_attempts')
    .values({
      state: attempt.state,
      code_verifier: attempt.codeVerifier,
      browser_hash: attempt.browserHash,
      nonce_hash: attempt.nonceHash,
      referrer_slug: attempt.referrerSlug,
      redirect_after: attempt.redirectAfter,
      created_at: attempt.createdAt,
      expires_at: attempt.expiresAt,
      purpose: attempt.purpose ?? 'link',
    })
    .execute();
}

/**
 * Marks the attempt used and returns it, in one statement: of two callbacks racing with the same state only
 * one gets the row. An unknown or already used state gives undefined; expiry is the caller's to judge.
 */
export async function consumeAttempt(
  db: Db,
  state: string,
  purpose: OAuthPurpose = 'link',
): Promise<OAuthAttemptRow | undefined> {
  return db
    .updateTable('oauth_attempts')
    .set({ used: true })
    .where('state', '=', state)
    .where('purpose', '=', purpose)
    .where('used', '=', false)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes attempts that expired before `before` (used or not): they can never complete. */
export async function deleteExpiredAttempts(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('oauth_attempts').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What a pending attempt is for (the callback picks its handler by it); undefined when unknown or used. */
export async function purposeOf(db: Db, state: string): Promise<OAuthPurpose | undefined> {
  const row = await db
    .selectFrom('oauth_attempts')
    .select('purpose')
    .where('state', '=', state)
    .where('used', '=', false)
    .executeTakeFirst();
  return row?.purpose;
}
