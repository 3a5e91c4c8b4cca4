import { noMore, runCommand } from './run-command';

/**
 * `npm run db:migrate`: applies pending migrations to the configured database and lists them. It is not sent to
 * a running server: the server applied its migrations when it started, and newer code's migrations belong to
 * the newer code, so the way to apply them is to restart the server with it.
 */
await runCommand({
  usage: `Apply pending database migrations (the server also applies them when it starts).

Usage:
  npm run db:migrate`,
  run: async (args) => {
    noMore(args.positionals, 0);
    const { loadConfig } = await import('../config/config');
    const { migrateToLatest } = await import('../db/migrate');
    const { openConfiguredDatabase } = await import('../db/open-from-config');
    const { DatabaseInUseError } = await import('../db/owner-lock');
    const config = loadConfig();
    let database;
    try {
      database = await openConfiguredDatabase(config);
    } catch (error) {
      if (error instanceof DatabaseInUseError && error.holder.role === 'server') {
        throw new Error(
          `The Manaboard server (pid ${error.holder.pid}) owns the embedded database in ${config.dataDir} and applied its migrations when it started; restart it to apply newer ones.`,
          { cause: error },
        );
      }
      throw error;
    }
    try {
      const { applied } = await migrateToLatest(database.db);
      const where = database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
      return applied.length ? `Applied ${applied.join(', ')} to ${where}` : `Already up to date: ${where}`;
    } catch (error) {
      throw new Error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    } finally {
      await database.close();
    }
  },
});
