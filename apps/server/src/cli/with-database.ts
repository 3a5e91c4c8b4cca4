import { loadConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { openConfiguredDatabase } from '../db/open-from-config';

/**
 * Runs an operator command against the configured database (migrated first), closing it afterwards and
 * turning failures into a one-line message and exit code 1.
 */
export async function withDatabase(run: (database: DatabaseHandle) => Promise<void>): Promise<void> {
  let database: DatabaseHandle | undefined;
  try {
    const config = loadConfig();
    database = await openConfiguredDatabase(config);
    await migrateToLatest(database.db);
    await run(database);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
