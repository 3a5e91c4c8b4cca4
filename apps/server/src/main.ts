import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { migrateToLatest } from './db/migrate';
import { openConfiguredDatabase } from './db/open-from-config';
import { seedDemoIfEmpty } from './modules/announcements/demo-seed';

/** Starts the server: configuration, database and migrations, demo content on a fresh database, then listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  const migration = await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  const log = app.log;
  log.info(
    {
      database: database.kind,
      applied: migration.applied,
      dataDir: database.kind === 'pglite' ? config.dataDir : undefined,
    },
    'database ready',
  );
  if (config.seedDemo) {
    const added = await seedDemoIfEmpty(database.db);
    if (added > 0) {
      log.info({ announcements: added }, 'empty database: demo content added (SEED_DEMO=false skips this)');
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(`Manaboard is serving ${config.publicOrigin}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Manaboard failed to start:', error);
  }
  process.exit(1);
});
