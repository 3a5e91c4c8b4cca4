import { sql, type Kysely } from 'kysely';

/**
 * Linking on Bluesky (issue 12): the AT Protocol OAuth client keeps two stores of its own. A pending authorization
 * (its PKCE verifier and DPoP key) lives in `bluesky_oauth_states` until the callback uses it; a member's session
 * (DPoP key and token set, refreshed by the client) lives in `bluesky_oauth_sessions`, one per DID. Both values are
 * sealed with the token key, like the X tokens. `link_id` names the link that created a session, so revoking an
 * old link never ends a newer session of the same member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bluesky_oauth_states')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('sealed', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('bluesky_oauth_sessions')
    .addColumn('did', 'text', (col) => col.primaryKey())
    .addColumn('sealed', 'text', (col) => col.notNull())
    .addColumn('link_id', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bluesky_oauth_sessions').execute();
  await db.schema.dropTable('bluesky_oauth_states').execute();
}
