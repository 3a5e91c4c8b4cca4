import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type DatabaseHandle = {
  db: Kysely<Database>;
  /** 'pglite' for the embedded database, 'postgres' for a server given by URL. */
  kind: 'pglite' | 'postgres';
  /** The embedded database itself (its own dump for backups); absent on PostgreSQL. */
  pglite?: PGlite;
  /** True when the database answers a trivial query. */
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
};

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir?: string }
  | { kind: 'postgres'; url: string; schema?: string; poolSize?: number };

/**
 * Opens the database: embedded PGlite (data in `dataDir`, or in memory when it is omitted) or PostgreSQL.
 * `schema` puts every table of a PostgreSQL connection in that schema (tests use one schema per file).
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let db: Kysely<Database>;
  let embedded: PGlite | undefined;
  if (options.kind === 'pglite') {
    let dataDir: string | undefined;
    if (options.dataDir) {
      dataDir = path.join(options.dataDir, 'pglite');
      await fs.mkdir(dataDir, { recursive: true });
    }
    // pg_trgm backs the leaderboard's substring search (migration 0005), as on PostgreSQL.
    const pglite = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
    db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    embedded = pglite;
  } else {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  return {
    db,
    kind: options.kind,
    ...(embedded ? { pglite: embedded } : {}),
    ping: async () => {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}
