import { sql, type Kysely } from 'kysely';

/**
 * The official accounts by their stable id (issue 25): the rules name an official account by its handle (that is
 * what an operator types and the console shows), and the first time a handle is resolved its network user id (the
 * DID on Bluesky, the user id on X) is kept here. From then on that id is the official account: a handle that
 * later changes hands names a stranger, and the programme does not follow it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('official_accounts')
    .addColumn('handle', 'text', (col) => col.primaryKey())
    .addColumn('network_user_id', 'text', (col) => col.notNull())
    .addColumn('resolved_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('official_accounts').execute();
}
