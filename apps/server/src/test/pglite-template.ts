import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { paths } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

const dbDir = path.join(paths.repoRoot, 'apps/server/src/db');

let cached: Promise<Blob> | undefined;

/**
 * A dump of an in-memory PGlite with every migration applied, made once and shared by every test process
 * through a file in the temporary directory, named by a hash of what decides its content (the migrations,
 * database.ts and the PGlite version): a fresh PGlite runs initdb, which with the migrations costs seconds
 * per database; loading this dump costs a fraction of that. Each test still gets its own database.
 */
export function migratedPgliteTemplate(): Promise<Blob> {
  cached ??= loadOrMake().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function loadOrMake(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `manaboard-pglite-template-${await contentHash()}.tar`);
  try {
    return new Blob([await fs.readFile(file)]);
  } catch {
    // Not made yet (or by a process still writing it: each writer renames its own complete file into place).
  }
  const database = await openDatabase({ kind: 'pglite' });
  try {
    await migrateToLatest(database.db);
    const dump = await database.pglite!.dumpDataDir('none');
    const partial = `${file}.${process.pid}.${Date.now()}`;
    await fs.writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await fs.rename(partial, file);
    return dump;
  } finally {
    await database.close();
  }
}

async function contentHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    path.join(dbDir, 'database.ts'),
    path.join(dbDir, 'migrate.ts'),
    ...(await fs.readdir(path.join(dbDir, 'migrations')))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .sort()
      .map((name) => path.join(dbDir, 'migrations', name)),
  ];
  for (const file of files) hash.update(file).update(await fs.readFile(file));
  const pglite = JSON.parse(
    await fs.readFile(path.join(paths.repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pglite.version);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A PGlite data directory on disk with every migration applied (the template above, unpacked once per content
 * hash into the temporary directory): copied into a server's DATA_DIR/pglite, the server starts on a migrated
 * but empty database instead of running initdb and every migration on disk, which takes most of a real
 * server's start-up. The first start on an empty directory is covered by the migration and operator tests.
 */
export async function migratedPgliteDataDir(): Promise<string> {
  const dir = path.join(os.tmpdir(), `manaboard-pglite-datadir-${await contentHash()}`);
  try {
    await fs.access(path.join(dir, 'PG_VERSION'));
    return dir;
  } catch {
    // Not made yet.
  }
  const partial = `${dir}.${process.pid}.${Date.now()}`;
  const pglite = await PGlite.create({
    dataDir: partial,
    loadDataDir: await migratedPgliteTemplate(),
    extensions: { pg_trgm },
  });
  await pglite.close();
  try {
    await fs.rename(partial, dir);
  } catch {
    // Another process put its copy there first.
    await fs.rm(partial, { recursive: true, force: true });
  }
  return dir;
}
