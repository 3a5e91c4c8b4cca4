import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from '../db/migrations/index';
import { SCHEMA_DROP_LOCK_KEY } from '../db/schema-drop-lock';

/**
 * The migrator stopped at `last`, on the connection's own schema (as migrateToLatest does), for a migration's own
 * test. On PostgreSQL it holds the schema-drop lock shared meanwhile, as migrateToLatest does: Kysely's migrator
 * reads the catalog of every schema on the server, and another test file dropping its schema during that scan
 * failed the migration with "schema … does not exist" (3F000; seen in CI on migration 0020's test).
 */
export async function migrateTo(db: Kysely<unknown>, last: string): Promise<void> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(rows[0]?.schema ? { migrationTableSchema: rows[0].schema } : {}),
  });
  const run = async () => {
    const { error } = await migrator.migrateTo(last);
    if (error) throw error;
  };
  if (db.getExecutor().adapter.supportsMultipleConnections === false) return run();
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock_shared(${SCHEMA_DROP_LOCK_KEY})`.execute(connection);
    try {
      await run();
    } finally {
      await sql`select pg_advisory_unlock_shared(${SCHEMA_DROP_LOCK_KEY})`.execute(connection);
    }
  });
}
