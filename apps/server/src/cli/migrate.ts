import { loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { openConfiguredDatabase } from '../db/open-from-config';

/** `npm run db:migrate`: applies pending migrations to the configured database and lists them. */
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const { applied } = await migrateToLatest(database.db);
  const where = database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(applied.length ? `Applied ${applied.join(', ')} to ${where}` : `Already up to date: ${where}`);
} catch (error) {
  console.error('Migration failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
