import { sql, type Kysely } from 'kysely';

/**
 * Binds each OAuth attempt to the browser that started it (login CSRF, DESIGN §3): the start sets a random nonce
 * in an HttpOnly cookie and stores its SHA-256 here; the callback completes only with the matching cookie.
 * Attempts still pending from before can never present such a cookie, so they are dropped rather than given a
 * placeholder (they would expire within 10 minutes anyway).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from oauth_attempts`.execute(db);
  await db.schema
    .alterTable('oauth_attempts')
    .addColumn('nonce_hash', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_attempts').dropColumn('nonce_hash').execute();
}
