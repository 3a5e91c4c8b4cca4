// The real Manaboard app with the demo world (as `npm start` runs it: API, worker, the built web app), plus the
// bare React page of bench/fixtures/bare-app served by this very server under /bench/bare-page/, so the browser
// figure compares our page with the cheapest React page the same server can serve. Run as a child process by
// bench/web-first-row.ts; it reports ready once the demo history has been replayed.
import { Writable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/composition/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { openConfiguredDatabase } from '../../apps/server/src/db/open-from-config';
import { demoWorld } from '../../apps/server/src/integrations/x/x-simulation';
import type { LeaderboardCache } from '../../apps/server/src/modules/leaderboard/leaderboard-cache';
import { demoState } from '../../apps/server/src/modules/mana/demo-state.service';
import { createWorkerRuntime } from '../../apps/server/src/composition/worker-runtime';

const bareDist = process.env.BARE_DIST;
if (!bareDist) throw new Error('BARE_DIST (the built bare app) is required');

// The worker reaches the simulated X on this server: its origin must be the address it listens on.
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'info',
  PUBLIC_ORIGIN: `http://127.0.0.1:${process.env.PORT ?? '3000'}`,
});
if (config.x.mode !== 'simulated') throw new Error('the web bench runs on the simulated X');
const database = await openConfiguredDatabase(config);
await migrateToLatest(database.db);
const demo = await demoState(database.db, Date.now());
const world = demoWorld(demo.anchor);

// The worker's info log is watched for the end of the replay; warnings and errors still reach stderr.
let caughtUp: () => void = () => undefined;
const replayed = new Promise<void>((resolve) => (caughtUp = resolve));
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    const line = chunk.toString();
    if (line.includes('demo: caught up')) caughtUp();
    if (/"level":(40|50|60)/.test(line)) process.stderr.write(line);
    done();
  },
});
const log = pino({ level: 'info' }, sink);

let leaderboardCache: LeaderboardCache | undefined;
const app = await buildApp({
  config: { ...config, logLevel: 'warn' },
  database,
  simulatedWorld: world,
  simulatedClockFollowsWall: false,
  simulatedOAuthOnWallClock: true,
  onLeaderboardCache: (cache) => (leaderboardCache = cache),
});
await app.register(fastifyStatic, { root: bareDist, prefix: '/bench/bare-page/', decorateReply: false });
const runtime = await createWorkerRuntime({
  config,
  database,
  log,
  demo: { world, state: demo },
  onTotalsChanged: () => leaderboardCache?.invalidate(),
});
await app.listen({ port: config.port, host: '127.0.0.1' });
void runtime.start();
await replayed;
process.send?.({ ready: true });
process.once('SIGTERM', () => {
  void runtime
    .stop()
    .then(() => app.close())
    .then(() => database.close())
    .then(() => process.exit(0));
});
