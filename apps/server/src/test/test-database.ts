import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { testEnv } from '../config/test-env';
import { openDatabase, type DatabaseHandle } from '../db/database';
import type { DiskSpaceGuardOptions } from '../db/pglite-disk-guard';
import { migrateToLatest } from '../db/migrate';
import { dropSchemasLocked } from '../db/schema-drop-lock';
import { migratedPgliteDataDir, migratedPgliteTemplate } from './pglite-template';

export type TestDatabaseKind = 'pglite' | 'postgres';
/**
 * Beside the kinds, 'pglite-thread': PGlite on disk, on a thread of its own, as the server runs it
 * on Bluesky (PGLITE_THREAD). Suites that exercise the stream's stores ask for it beside testDatabaseKinds().
 */
export type TestDatabaseSetup = TestDatabaseKind | 'pglite-thread';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. API suites run once per kind. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return testEnv.databaseUrl ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh, migrated (unless `migrate: false`: a migration's own test) database for one test file: an in-memory PGlite, or a new schema on the PostgreSQL server
 * (dropped again by close()). A migrated PGlite starts as a copy of one migrated once (pglite-template.ts).
 */
export async function openTestDatabase(
  kind: TestDatabaseSetup,
  /** diskGuard: PGlite's free-space guard, on a free space the test sets (pglite-disk-guard.ts). */
  options: { migrate?: boolean; diskGuard?: DiskSpaceGuardOptions } = {},
): Promise<DatabaseHandle> {
  const migrate = options.migrate ?? true;
  if (kind === 'pglite-thread') {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-test-thread-'));
    if (migrate)
      await fs.cp(await migratedPgliteDataDir(), path.join(dataDir, 'pglite'), { recursive: true });
    const handle = await openDatabase({
      kind: 'pglite',
      dataDir,
      thread: true,
      ...(options.diskGuard ? { diskGuard: options.diskGuard } : {}),
    });
    if (migrate) await migrateToLatest(handle.db);
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (kind === 'pglite') {
    const guard = options.diskGuard ? { diskGuard: options.diskGuard } : {};
    if (!migrate) return openDatabase({ kind: 'pglite', ...guard });
    // A copy of a database migrated once (initdb and the migrations cost seconds for each database).
    const template = await migratedPgliteTemplate();
    const handle = await openDatabase({ kind: 'pglite', loadDataDir: template, ...guard });
    // Nothing to apply; a template that missed a migration would be caught up here, as on a real upgrade.
    await migrateToLatest(handle.db);
    return handle;
  }
  const url = testEnv.databaseUrl;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `mb_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = await openDatabase({ kind: 'postgres', url, schema, poolSize: 5 });
  if (migrate) await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await dropSchemasLocked(cleanup, [schema]);
      await cleanup.end();
    },
  };
}
