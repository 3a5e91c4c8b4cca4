// The real server over the ledger bench's database (BENCH_DB, a SeededDb). Its resident set size is sampled
// every 50 ms: 'reset' starts a new peak from now, 'rss' answers the current and the peak since the last reset.
import { buildApp } from '../../apps/server/src/composition/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { World } from '../../packages/x-sim/src/index';
import { openSeeded, type SeededDb } from './mana-db';

const seeded = JSON.parse(process.env.BENCH_DB ?? '') as SeededDb;
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' });
const database = await openSeeded(seeded);
const app = await buildApp({ config, database, simulatedWorld: new World(Date.now()) });
await app.listen({ port: config.port, host: '127.0.0.1' });
let peak = process.memoryUsage().rss;
setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50).unref();
process.send?.({ ready: true });
process.on('message', (message) => {
  const rss = process.memoryUsage().rss;
  if (message === 'reset') peak = rss;
  peak = Math.max(peak, rss);
  process.send?.({ rss, peak });
});
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
