import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { pgliteStartParams, type PgliteMemory } from '../config/memory-config';
import { guardDiskSpace, type DiskSpaceGuardOptions } from './pglite-disk-guard';
import { initPgliteDataDir } from './pglite-init';
import { acquireOwnerLock, type OwnerLock, type OwnerRole } from './owner-lock';
import type { Database } from './schema';

/** pg_trgm backs the leaderboard's substring search (migration 0005), as on PostgreSQL. */
export const pgliteExtensions = { pg_trgm };

export type DatabaseHandle = {
  db: Kysely<Database>;
  /** 'pglite' for the embedded database, 'postgres' for a server given by URL. */
  kind: 'pglite' | 'postgres';
  /** The embedded database itself (its own dump for backups); absent on PostgreSQL. */
  pglite?: PGlite;
  /** True when the database answers a trivial query. */
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
  /** The owner lock of an embedded data directory (none in memory or on PostgreSQL). */
  lock?: OwnerLock;
};

export type DatabaseOptions =
  | {
      kind: 'pglite';
      dataDir?: string;
      /** Who opens it (see owner-lock.ts); 'command' unless the server says so. */
      owner?: OwnerRole;
      /** The socket a server will take operator commands on, recorded in its lock. */
      socket?: string;
      /**
       * In memory only: start from this dump (PGlite's dumpDataDir) instead of a fresh initdb. Tests use it to
       * skip initdb and the migrations for each database (test/test-database.ts).
       */
      loadDataDir?: Blob;
      /** Shared buffers and work memory (PGLITE_* settings); PostgreSQL's defaults when omitted. */
      memory?: PgliteMemory;
      /**
       * A fresh data directory is copied from the build's template, or made by initdb in a child process whose
       * memory then goes (pglite-init.ts).
       */
      initInChild?: boolean;
      /**
       * The free space kept on the data directory's disk (pglite-disk-guard.ts). Tests give a free space of their
       * own (then in memory too).
       */
      diskGuard?: DiskSpaceGuardOptions;
    }
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      poolSize?: number;
      /**
       * Told when a pooled connection breaks (server restart, pg_terminate_backend, network): the pool drops it
       * and opens another; the query that was running on it fails on its own. Default: one line on stderr.
       */
      onConnectionError?: (error: Error) => void;
    };

/**
 * Opens the database: embedded PGlite (data in `dataDir`, or in memory when it is omitted) or PostgreSQL.
 * `schema` puts every table of a PostgreSQL connection in that schema (tests use one schema per file).
 * A data directory is opened by one process at a time: its owner lock is taken first (DatabaseInUseError when
 * another live process holds it) and released on close.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let db: Kysely<Database>;
  let lock: OwnerLock | undefined;
  let embedded: PGlite | undefined;
  if (options.kind === 'pglite') {
    let dataDir: string | undefined;
    if (options.dataDir) {
      lock = await acquireOwnerLock(options.dataDir, options.owner ?? 'command', options.socket);
      dataDir = path.join(options.dataDir, 'pglite');
      await fs.mkdir(dataDir, { recursive: true });
    }
    try {
      const startParams = options.memory
        ? pgliteStartParams(PGlite.defaultStartParams, options.memory)
        : undefined;
      if (dataDir && options.initInChild) await initPgliteDataDir(dataDir, startParams);
      const pglite = await PGlite.create({
        ...(dataDir ? { dataDir } : options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
        extensions: pgliteExtensions,
        ...(startParams ? { startParams } : {}),
      });
      // On disk, writes stop before the disk is full (a full disk can hang PGlite: pglite-disk-guard.ts).
      // In memory only when a test gives a free space of its own.
      const disk = options.dataDir ?? (options.diskGuard ? 'memory' : undefined);
      const guarded = disk ? guardDiskSpace(pglite, disk, options.diskGuard) : pglite;
      db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: guarded }) });
      embedded = pglite;
    } catch (error) {
      await lock?.release();
      throw error;
    }
  } else {
    // Imported only here: a server on PGlite never loads the PostgreSQL driver.
    const { Pool } = (await import('pg')).default;
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    watchConnections(pool, options.onConnectionError ?? defaultConnectionError);
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
    close: async () => {
      try {
        await db.destroy();
      } finally {
        await lock?.release();
      }
    },
    ...(lock ? { lock } : {}),
  };
}

function defaultConnectionError(error: Error): void {
  console.error(`PostgreSQL connection lost: ${error.message}`);
}

/**
 * pg emits 'error' on a pool (idle connection) or on a checked-out client when its connection dies; an 'error'
 * nobody listens to kills the process. Reported once per connection: a dying one may emit twice (the server's
 * FATAL, then the closed socket), and pg re-emits an idle client's error on the pool.
 */
function watchConnections(pool: pg.Pool, report: (error: Error) => void): void {
  const reported = new WeakSet<object>();
  const once = (error: Error, client: object) => {
    if (reported.has(client)) return;
    reported.add(client);
    report(error);
  };
  pool.on('error', (error, client) => once(error, client));
  pool.on('connect', (client) => client.on('error', (error) => once(error, client)));
}
