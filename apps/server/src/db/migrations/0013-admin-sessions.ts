import { sql, type Kysely } from 'kysely';

/**
 * The operator console (issue 13). An admin signs in through the network's OAuth on the one registered callback:
 * an OAuth attempt now remembers its purpose ('link' for members, 'admin' for the console), and an admin attempt
 * belongs to no member browser (browser_hash null). The sign-in ends in `admin_sessions`: only the SHA-256 of the
 * random session id is stored, with who signed in, when the session was last used (idle timeout) and when it
 * ends whatever happens (absolute lifetime). The audit log gains an index for the console's newest-first pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oauth_attempts')
    .addColumn('purpose', 'text', (col) => col.notNull().defaultTo('link'))
    .execute();
  await db.schema
    .alterTable('oauth_attempts')
    .alterColumn('browser_hash', (col) => col.dropNotNull())
    .execute();
  await db.schema
    .createTable('admin_sessions')
    .addColumn('id_hash', 'text', (col) => col.primaryKey())
    .addColumn('network_user_id', 'text', (col) => col.notNull())
    .addColumn('handle', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('admin_sessions_expires_idx')
    .on('admin_sessions')
    .column('expires_at')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at desc', 'id desc']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_at_idx').execute();
  await db.schema.dropTable('admin_sessions').execute();
  await sql`delete from oauth_attempts where browser_hash is null`.execute(db);
  await db.schema
    .alterTable('oauth_attempts')
    .alterColumn('browser_hash', (col) => col.setNotNull())
    .execute();
  await db.schema.alterTable('oauth_attempts').dropColumn('purpose').execute();
}
