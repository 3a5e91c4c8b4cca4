import { sql, type Kysely } from 'kysely';

/**
 * Linked X accounts, the browsers bound to them, pending OAuth attempts and referrals (DESIGN §5). Handles are
 * compared case-insensitively everywhere, so their lookups use `lower(handle)` indices.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('x_user_id', 'text', (col) => col.notNull().unique())
    .addColumn('handle', 'text', (col) => col.notNull())
    .addColumn('avatar_url', 'text')
    // Anti-bot facts, as X reported them at the last login.
    .addColumn('x_created_at', 'timestamptz')
    .addColumn('followers', 'integer', (col) => col.notNull().defaultTo(0))
    // Sealed with TokenCipher (AES-256-GCM); never stored in the clear.
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('token_expires_at', 'timestamptz')
    .addColumn('scopes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('linked_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addColumn('disqualified', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  // Not unique: X frees a handle on rename, and our copy of the old owner's handle may be stale until they log in.
  await db.schema
    .createIndex('accounts_handle_lower_idx')
    .on('accounts')
    .expression(sql`lower(handle)`)
    .execute();

  await db.schema
    .createTable('browser_links')
    .addColumn('browser_hash', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('linked_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('browser_links_account_idx').on('browser_links').column('account_id').execute();

  await db.schema
    .createTable('oauth_attempts')
    .addColumn('state', 'text', (col) => col.primaryKey())
    .addColumn('code_verifier', 'text', (col) => col.notNull())
    .addColumn('browser_hash', 'text', (col) => col.notNull())
    .addColumn('referrer_slug', 'text')
    .addColumn('redirect_after', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  // Old attempts are swept by expiry.
  await db.schema
    .createIndex('oauth_attempts_expires_idx')
    .on('oauth_attempts')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('referrals')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    // One referrer per member, ever: the database, not the service, makes parallel applies safe.
    .addColumn('referee_account_id', 'bigint', (col) =>
      col.notNull().unique().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('referrer_account_id', 'bigint', (col) =>
      col.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('reward_mana', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('credited', 'void')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addCheckConstraint('referrals_not_self', sql`referee_account_id <> referrer_account_id`)
    .execute();
  await db.schema
    .createIndex('referrals_referrer_idx')
    .on('referrals')
    .column('referrer_account_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('referrals').execute();
  await db.schema.dropTable('oauth_attempts').execute();
  await db.schema.dropTable('browser_links').execute();
  await db.schema.dropTable('accounts').execute();
}
