import { Kysely, PGliteDialect, PostgresDialect, sql, type LogEvent } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { testEnv } from '../config/test-env';
import { openTestDatabase, testDatabaseKinds } from '../test/test-database';
import type { DatabaseHandle } from './database';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations/index';
import type { Database } from './schema';

const names = Object.keys(migrations);

/** A second Kysely on the same database that counts the queries run through it. */
function counting(handle: DatabaseHandle, schema?: string): { db: Kysely<Database>; queries: string[] } {
  const queries: string[] = [];
  const log = (event: LogEvent) => void queries.push(event.query.sql);
  const dialect = handle.pglite
    ? new PGliteDialect({ pglite: handle.pglite })
    : new PostgresDialect({
        pool: new pg.Pool({
          connectionString: testEnv.databaseUrl,
          max: 2,
          ...(schema ? { options: `-c search_path=${schema}` } : {}),
        }),
      });
  return { db: new Kysely<Database>({ dialect, log }), queries };
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? '';
}

describe.each(testDatabaseKinds())('a start that finds its migrations (%s)', (kind) => {
  let handle: DatabaseHandle | undefined;
  let other: Kysely<Database> | undefined;
  afterEach(async () => {
    // PGlite's handle is shared: closing the counting Kysely would close it under the handle.
    if (kind === 'postgres') await other?.destroy();
    await handle?.close();
    handle = other = undefined;
  });

  it('learns that none is due in one query and applies nothing', async () => {
    handle = await openTestDatabase(kind);
    const watched = counting(handle, await currentSchema(handle.db));
    other = watched.db;
    expect(await migrateToLatest(watched.db)).toEqual({ applied: [], freshDatabase: false });
    expect(watched.queries).toHaveLength(1);
  });

  it('applies the newest migration when it is the one missing', async () => {
    handle = await openTestDatabase(kind, { migrate: false });
    const schema = await currentSchema(handle.db);
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => migrations },
      migrationTableSchema: schema,
    });
    const upTo = names.at(-2) ?? '';
    expect((await migrator.migrateTo(upTo)).error).toBeUndefined();
    expect(await migrateToLatest(handle.db)).toEqual({ applied: [names.at(-1)], freshDatabase: false });
  });

  it('leaves a migration this code does not know to the Migrator, which refuses it', async () => {
    handle = await openTestDatabase(kind);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', '2026-01-01T00:00:00.000Z')`.execute(
      handle.db,
    );
    await expect(migrateToLatest(handle.db)).rejects.toThrow(/9999-from-a-newer-version/);
  });
});
