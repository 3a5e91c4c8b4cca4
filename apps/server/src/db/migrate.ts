import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResult } from 'kysely/migration';
import type { Database } from './schema';
import { migrations } from './migrations/index';
import { SCHEMA_DROP_LOCK_KEY } from './schema-drop-lock';

export type MigrateOutcome = {
  applied: string[];
  /** True when this run created the schema from nothing, i.e. the database was empty. */
  freshDatabase: boolean;
};

/** The advisory-lock key every process holds while it migrates a PostgreSQL database ('MIGR' in ASCII). */
export const MIGRATION_LOCK_KEY = 0x4d494752;

/**
 * Brings the database to the latest migration; safe to run on every start and from several processes at once.
 * On PostgreSQL the whole run (Kysely's bookkeeping tables included, which Kysely creates before taking its own
 * lock) happens under one session-level advisory lock held on a reserved connection: processes starting
 * together queue on it, the first applies the migrations and the others find nothing left to do. A process
 * that dies while holding it loses its connection, and with it the lock. PGlite has one connection and one
 * process, so there the lock is not needed (and reserving its only connection would block the migrator).
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrateOutcome> {
  if (await nothingDue(db)) return { applied: [], freshDatabase: false };
  if (db.getExecutor().adapter.supportsMultipleConnections === false) return migrateUnlocked(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    // Shared with other starts, exclusive to schema drops made by this project's tools (schema-drop-lock.ts): a
    // burst of drops while Kysely scans the catalog could outlast the retries below.
    await sql`select pg_advisory_lock_shared(${SCHEMA_DROP_LOCK_KEY})`.execute(connection);
    try {
      return await migrateUnlocked(db);
    } finally {
      await sql`select pg_advisory_unlock_shared(${SCHEMA_DROP_LOCK_KEY})`.execute(connection);
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}

const known = Object.keys(migrations).sort();

/**
 * One query that tells whether every migration this code knows is applied already (issue 33): the number of
 * migrations recorded in this schema's `kysely_migration` and the newest name, against ours. That is every start
 * but a first or an upgrade, and it skips Kysely's Migrator, which creates its tables if missing, reads the whole
 * catalog (the columns of every table) and takes its lock, ~0.15 s on the embedded database. The table is only
 * read if it is in the current schema, the one the Migrator uses (below). When the answer is anything else (no
 * table yet, a migration missing or unknown to this code), the Migrator runs as before and says what is wrong.
 */
async function nothingDue(db: Kysely<Database>): Promise<boolean> {
  try {
    const { rows } = await sql<{ count: string | number; newest: string | null }>`
      select count(*) as count, max(m.name) as newest from kysely_migration m
      where (select c.relnamespace from pg_catalog.pg_class c where c.oid = to_regclass('kysely_migration'))
        = (select n.oid from pg_catalog.pg_namespace n where n.nspname = current_schema())`.execute(db);
    const row = rows[0];
    return Number(row?.count) === known.length && row?.newest === known.at(-1);
  } catch {
    return false;
  }
}

/**
 * PostgreSQL's "schema does not exist" (3F000). Kysely's migrator looks for its bookkeeping tables by
 * introspecting the tables of every schema in the database (`pg_get_serial_sequence` on each column), so a schema
 * another process drops at that moment (a test file's, a tenant's) fails the lookup, though ours is intact.
 */
const SCHEMA_VANISHED = '3F000';
const MIGRATE_ATTEMPTS = 5;

function vanishedSchema(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === SCHEMA_VANISHED
  );
}

/** Migrates, trying again when another schema vanished under Kysely's introspection (nothing was applied then). */
async function migrateUnlocked(db: Kysely<Database>): Promise<MigrateOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db);
    } catch (error) {
      if (attempt >= MIGRATE_ATTEMPTS || !vanishedSchema((error as { cause?: unknown }).cause)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

async function migrateOnce(db: Kysely<Database>): Promise<MigrateOutcome> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: a second schema holding them
  // (another app, or a parallel test file's schema) would make it skip creating ours. So name ours.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === 'Error');
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${why}`, { cause: error });
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const first = Object.keys(migrations)[0];
  return { applied, freshDatabase: first !== undefined && applied.includes(first) };
}
