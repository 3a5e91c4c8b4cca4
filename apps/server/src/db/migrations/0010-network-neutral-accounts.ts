import { sql, type Kysely } from 'kysely';

/**
 * The accounts table stops naming X (issue 12): a member's stable id and account creation date are the
 * network's, whichever network the programme runs on (X user id or Bluesky DID). Renames keep every row and
 * index; the unique constraint is renamed with its column so its name still says what it guards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').renameColumn('x_user_id', 'network_user_id').execute();
  await db.schema.alterTable('accounts').renameColumn('x_created_at', 'network_created_at').execute();
  await sql`alter table accounts rename constraint accounts_x_user_id_key to accounts_network_user_id_key`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts rename constraint accounts_network_user_id_key to accounts_x_user_id_key`.execute(
    db,
  );
  await db.schema.alterTable('accounts').renameColumn('network_created_at', 'x_created_at').execute();
  await db.schema.alterTable('accounts').renameColumn('network_user_id', 'x_user_id').execute();
}
