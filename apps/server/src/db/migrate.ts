import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResult } from 'kysely/migration';
import type { Database } from './schema';
import { migrations } from './migrations/index';

export type MigrateOutcome = {
  applied: string[];
  /** True when this run created the schema from nothing, i.e. the database was empty. */
  freshDatabase: boolean;
};

/** Brings the database to the latest migration; safe to run on every start and from several processes. */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrateOutcome> {
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
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const first = Object.keys(migrations)[0];
  return { applied, freshDatabase: first !== undefined && applied.includes(first) };
}
