// The real server over a seeded Mana database (bench/lib/mana-db.ts), plus a bare JSON route on the same
// instance. BENCH_DB (JSON of a SeededDb) names the database; LEADERBOARD_CACHE=off turns the leaderboard
// cache off, exactly as an operator would. Answers 'rss' IPC messages with its resident set size.
import { buildApp } from '../../apps/server/src/composition/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { World } from '../../packages/x-sim/src/index';
import { openSeeded, type SeededDb } from './mana-db';

const seeded = JSON.parse(process.env.BENCH_DB ?? '') as SeededDb;
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' });
const database = await openSeeded(seeded);
await migrateToLatest(database.db);
const app = await buildApp({
  config,
  database,
  // The leaderboard never calls X; a tiny world keeps start-up short.
  simulatedWorld: new World(Date.now()),
});
app.get('/bench/bare', async () => ({ success: true, data: { hello: 'world' } }));
await app.listen({ port: config.port, host: '127.0.0.1' });
let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100).unref();
process.send?.({ ready: true, rss: process.memoryUsage().rss });
process.on('message', (message) => {
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  if (message === 'rss') process.send?.({ rss, peakRss });
});
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
