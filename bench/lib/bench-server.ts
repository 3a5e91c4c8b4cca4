// A real Manaboard server for benchmarks, plus one bare JSON route on the same instance, so every route is
// measured against the cheapest answer this very server can give. Run as a child process by bench/run.ts.
import { buildApp } from '../../apps/server/src/composition/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { openConfiguredDatabase } from '../../apps/server/src/db/open-from-config';
import { seedDemoAnnouncements } from '../../apps/server/src/modules/announcements/demo-seed';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const database = await openConfiguredDatabase(config);
await migrateToLatest(database.db);
await seedDemoAnnouncements(database.db);
const app = await buildApp({ config, database });
app.get('/bench/bare', async () => ({ success: true, data: { hello: 'world' } }));
await app.listen({ port: config.port, host: '127.0.0.1' });
process.send?.({ ready: true, rss: process.memoryUsage().rss });
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
});
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
