import fs from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql, type PGliteDialectConfig } from 'kysely';
import type pg from 'pg';
import { pgliteStartParams, type PgliteMemory } from './pglite-start-params';
import { guardDiskSpace, type DiskSpaceGuardOptions } from './pglite-disk-guard';
import { initPgliteDataDir } from './pglite-init';
import { PgliteThread } from './pglite-thread';
import { releaseFileBundle, type BundleRelease } from './pglite-file-bundle';
import { acquireOwnerLock, type OwnerLock, type OwnerRole } from './owner-lock';
import type { Database } from './schema';

/**
 * The embedded database itself: the calls Kysely's dialect makes, and a dump of its data directory (backups). PGlite
 * in this thread, or on its own (pglite-thread.ts).
 */
export type EmbeddedDatabase = Exclude<PGliteDialectConfig['pglite'], (...args: never[]) => unknown> & {
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
};

export type DatabaseHandle = {
  db: Kysely<Database>;
  /** 'pglite' for the embedded database, 'postgres' for a server given by URL. */
  kind: 'pglite' | 'postgres';
  /** The embedded database itself (its own dump for backups); absent on PostgreSQL. */
  pglite?: EmbeddedDatabase;
  /**
   * True when the embedded database runs on a thread of its own (pglite-thread.ts): its statements never hold the
   * thread that calls them.
   */
  threaded?: boolean;
  /** What became of PGlite's file bundle as it opened (pglite-file-bundle.ts); absent on PostgreSQL. */
  fileBundle?: BundleRelease;
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
      /**
       * On disk only: PGlite runs on a worker thread of its own (pglite-thread.ts), so a long statement never holds
       * the thread that serves requests. The server's on Bluesky (PGLITE_THREAD); commands and tests run it in their
       * own thread unless they ask.
       */
      thread?: boolean;
      /** The database's own thread stopped while open (thread only): every statement now fails with the reason. */
      onThreadExit?: (error: Error) => void;
      /**
       * The data directory's lock is held and the database is opening (on its thread, when it has one): a caller
       * that has work of its own can do it now, beside the opening.
       */
      onLocked?: () => void;
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
  let embedded: EmbeddedDatabase | undefined;
  let fileBundle: BundleRelease | undefined;
  if (options.kind === 'pglite') {
    let dataDir: string | undefined;
    // Its own thread starts before the lock is taken: it loads PGlite's code meanwhile, and opens once told.
    const thread = options.dataDir && options.thread ? PgliteThread.start(options.onThreadExit) : undefined;
    if (options.dataDir) {
      try {
        lock = await acquireOwnerLock(options.dataDir, options.owner ?? 'command', options.socket);
        dataDir = path.join(options.dataDir, 'pglite');
        await fs.mkdir(dataDir, { recursive: true });
      } catch (error) {
        await thread?.close();
        await lock?.release();
        throw error;
      }
    }
    try {
      // On disk, writes stop before the disk is full (a full disk can hang PGlite: pglite-disk-guard.ts).
      // In memory only when a test gives a free space of its own.
      const disk = options.dataDir ?? (options.diskGuard ? 'memory' : undefined);
      if (dataDir && thread) {
        // PGlite's own module is loaded by its thread only (pglite-thread-entry.ts), as is the data directory's
        // first copy.
        const opened = thread.open({
          dataDir,
          ...(options.memory ? { memory: options.memory } : {}),
          ...(options.initInChild ? { init: true } : {}),
        });
        options.onLocked?.();
        await opened;
        const guarded = disk ? guardDiskSpace(thread, disk, options.diskGuard) : thread;
        db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: guarded }) });
        embedded = thread;
        fileBundle = thread.fileBundle;
      } else {
        options.onLocked?.();
        // Loaded only here: a server whose database has a thread of its own never loads it on this one.
        const { PGlite } = await import('@electric-sql/pglite');
        const { pgliteExtensions } = await import('./pglite-extensions');
        const startParams = options.memory
          ? pgliteStartParams(PGlite.defaultStartParams, options.memory)
          : undefined;
        if (dataDir && options.initInChild) await initPgliteDataDir(dataDir, startParams);
        const pglite = await PGlite.create({
          ...(dataDir ? { dataDir } : options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
          extensions: pgliteExtensions,
          ...(startParams ? { startParams } : {}),
        });
        fileBundle = releaseFileBundle(pglite);
        const guarded = disk ? guardDiskSpace(pglite, disk, options.diskGuard) : pglite;
        db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: guarded }) });
        embedded = pglite;
      }
    } catch (error) {
      await thread?.close();
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
    ...(embedded instanceof PgliteThread ? { threaded: true } : {}),
    ...(fileBundle ? { fileBundle } : {}),
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
        // Kysely closes the database only when a statement ever ran; a handle closed unused must end it too.
        if (embedded && !embedded.closed) await embedded.close();
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
