import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { childProcessEnv } from '../config/child-env';
import { acquireOwnerLock, DatabaseInUseError } from './owner-lock';
import type { EmbeddedDatabase } from './database';

/** What a backup is taken from: the PGlite instance itself (its owner), or a PostgreSQL server. */
export type BackupSource = { kind: 'pglite'; pglite: EmbeddedDatabase } | PostgresTarget;
/** What a restore writes to: a PGlite data directory (its owner stopped), or a PostgreSQL server. */
export type RestoreTarget = { kind: 'pglite'; dataDir: string } | PostgresTarget;
/** A PostgreSQL database; `schema` limits a backup to one schema (tests use a schema each). */
export type PostgresTarget = { kind: 'postgres'; url: string; schema?: string };

/** Raised for a backup or restore that cannot be done; the message says what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const PG_DUMP_MAGIC = Buffer.from('PGDMP');

/** The file name a backup gets when none is given: engine and UTC time, sortable. */
export function defaultBackupName(kind: 'pglite' | 'postgres', now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `manaboard-${kind}-${stamp}.${kind === 'pglite' ? 'tar.gz' : 'dump'}`;
}

/** Writes through `write` to `file.partial`, flushes it to disk, then renames it: a backup is whole or absent. */
async function writeDurably(file: string, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${file}.partial`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  try {
    await write(partial);
    const handle = await fs.open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(partial, file);
    const dir = await fs.open(path.dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
}

/** Runs a PostgreSQL client tool; the password goes by environment, never on the command line or in a message. */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${parsed.href}`], {
      env: childProcessEnv(password ? { PGPASSWORD: password } : {}),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${tool} is not installed: install the PostgreSQL client tools of your server's version (e.g. apt install postgresql-client-15)`
            : `${tool} failed: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const reason = stderr
        .trim()
        .split('\n')
        .slice(-3)
        .join(' ')
        .replaceAll(password || '\0', '***');
      reject(new BackupError(`${tool} failed (exit ${code}): ${reason || 'no message'}`));
    });
  });
}

/**
 * Takes a consistent backup into `file`. PGlite: its own dump of the data directory (tar.gz), taken by the
 * process that owns the database (a second process would read a stale copy). PostgreSQL: `pg_dump` in its
 * custom format (one consistent snapshot while the server keeps running). Returns the size in bytes.
 */
export async function backupDatabase(source: BackupSource, file: string): Promise<{ bytes: number }> {
  if (source.kind === 'pglite') {
    const dump = await source.pglite.dumpDataDir('gzip');
    const bytes = new Uint8Array(await dump.arrayBuffer());
    await writeDurably(file, (partial) => fs.writeFile(partial, bytes));
  } else {
    const schema = source.schema ? [`--schema=${source.schema}`] : [];
    await writeDurably(file, (partial) =>
      runPgTool(
        'pg_dump',
        ['--format=custom', '--no-owner', '--no-privileges', ...schema, `--file=${partial}`],
        source.url,
      ),
    );
  }
  return { bytes: (await fs.stat(file)).size };
}

async function magicOf(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(error.code === 'ENOENT' ? `No such backup file: ${file}` : error.message);
  });
  try {
    const buffer = Buffer.alloc(5);
    await handle.read(buffer, 0, 5, 0);
    return buffer;
  } finally {
    await handle.close();
  }
}

/**
 * Restores `file` over the target. PGlite (with the server stopped): the dump is first loaded into a fresh
 * directory and opened; only then is the current data moved aside (kept, its path returned) and the restored
 * one put in its place. PostgreSQL: `pg_restore --clean` in one transaction, so a failed restore changes nothing.
 */
export async function restoreDatabase(
  target: RestoreTarget,
  file: string,
): Promise<{ previous: string | undefined }> {
  const magic = await magicOf(file);
  if (target.kind === 'pglite') {
    if (!magic.subarray(0, 2).equals(GZIP_MAGIC))
      throw new BackupError(
        `${file} is not a PGlite backup (tar.gz from npm run db:backup without DATABASE_URL)`,
      );
    // Never under a running owner: it would go on with the old data and overwrite the restored one.
    const lock = await acquireOwnerLock(target.dataDir, 'command').catch((error: unknown) => {
      if (!(error instanceof DatabaseInUseError)) throw error;
      throw new BackupError(
        error.holder.role === 'server'
          ? `The Manaboard server (pid ${error.holder.pid}) holds the embedded database in ${target.dataDir}: stop it first, then restore; nothing was changed.`
          : error.message,
      );
    });
    try {
      return await restorePglite(target.dataDir, file);
    } finally {
      await lock.release();
    }
  }

  if (!magic.equals(PG_DUMP_MAGIC))
    throw new BackupError(
      `${file} is not a PostgreSQL backup (pg_dump custom format from npm run db:backup)`,
    );
  await runPgTool(
    'pg_restore',
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      file,
    ],
    target.url,
  );
  return { previous: undefined };
}

/** Loads the dump into a fresh directory and checks it, then swaps it in (the caller holds the owner lock). */
async function restorePglite(dataDir: string, file: string): Promise<{ previous: string | undefined }> {
  const live = path.join(dataDir, 'pglite');
  const stamp = Date.now();
  const restoring = `${live}.restoring-${stamp}`;
  const dump = new Blob([await fs.readFile(file)]);
  await fs.mkdir(dataDir, { recursive: true });
  try {
    // PGlite's module is loaded when a restore needs it (a server whose database has its own thread never does).
    const { PGlite } = await import('@electric-sql/pglite');
    const { pgliteExtensions } = await import('./pglite-extensions');
    const pglite = await PGlite.create({
      dataDir: restoring,
      loadDataDir: dump,
      extensions: pgliteExtensions,
    });
    await pglite.query('select 1');
    await pglite.close();
  } catch (error) {
    await fs.rm(restoring, { recursive: true, force: true });
    throw new BackupError(`${file} could not be loaded: ${error instanceof Error ? error.message : error}`);
  }
  const previous = `${live}.before-restore-${stamp}`;
  const hadData = await fs.stat(live).then(
    () => true,
    () => false,
  );
  if (hadData) await fs.rename(live, previous);
  await fs.rename(restoring, live);
  return { previous: hadData ? previous : undefined };
}
