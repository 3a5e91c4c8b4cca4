// The server once its configuration is read and its database is opening (src/main.ts): migrations, the demo's state,
// the API and the worker, the owner channel, the shutdown. Loaded by main.ts with import() while the database opens.
import { buildApp, createMetrics } from './app';
import { migrateToLatest } from '../db/migrate';
import { startOwnerChannel, type OwnerChannel } from '../operator/owner-channel';
import { seedDemoIfEmpty } from '../modules/announcements/demo-seed';
import { openTokenCipher } from '../security/token-vault';
import { flushCompileCache } from 'node:module';
import pino from 'pino';
import { demoWorld, simulatedXBase } from '../integrations/x/x-simulation';
import { lazyWorld } from '@manaboard/x-sim';
import { followDemoOrigin } from '../modules/mana/demo-origin';
import type { LeaderboardCache } from '../modules/leaderboard/leaderboard-cache';
import { demoState } from '../modules/mana/demo-state.service';
import { createWorkerRuntime, type WorkerRuntime } from './worker-runtime';
import { startMetricsServer } from '../modules/metrics/metrics-server';
import { monitorEventLoop } from '../lib/event-loop-monitor';
import { officialHandleRule } from '../integrations/official-handles';
import { seedProgrammeRules } from '../modules/programme/programme-seed';
import { runDoctor } from '../doctor/doctor';
import { startMemoryTrim } from '../lib/memory-trim';
import { logPhasesTo, markPhase } from '../lib/start-phases';
import { firstAnswer } from '../http/first-answer';
import type { Config } from '../config/config';
import type { DatabaseHandle } from '../db/database';

export type Role = 'all' | 'api' | 'worker';

/** Told of the database's connection troubles: main.ts's first handlers write to stderr, the server's to its log. */
export type DatabaseHandlers = {
  connectionLost: (error: Error) => void;
  databaseStopped: (error: Error) => void;
};

/** How long the worker waits for the API's first answer before it starts anyway. */
const FIRST_ANSWER_WAIT_MS = 500;

/** Warnings before the app (and its logger) exist go to stderr. */
const startupLog = { warn: (details: object, message: string) => console.warn(message, details) };

/**
 * Serves on an open database: migrations, demo content on a fresh database, then the API (listening) and/or the
 * worker. With the simulated X, `npm start` replays the demo world's history through the worker first.
 */
export async function serve(
  role: Role,
  config: Config,
  database: DatabaseHandle,
  handlers: DatabaseHandlers,
): Promise<void> {
  const migration = await migrateToLatest(database.db);
  markPhase('migrations checked');
  // The simulated X's demo world exists only on X.
  const simulated = config.socialNetwork === 'x' && config.x.mode === 'simulated';
  // Off the demo, a new database's rules name only the official accounts OFFICIAL_ACCOUNTS gives (issue 25).
  await seedProgrammeRules(database.db, {
    demo: simulated,
    officialAccounts: config.programme.officialAccounts,
    handles: officialHandleRule(config.socialNetwork),
  });
  markPhase('programme rules');
  // The demo follows the origin it is served from (a new PORT or PUBLIC_ORIGIN moves its avatar links).
  const demo = simulated
    ? await followDemoOrigin(
        database.db,
        await demoState(database.db, Date.now()),
        simulatedXBase(config),
        new Date(),
      )
    : undefined;
  // Built when first needed (the worker's replay, after the first answer, or a request to the simulated X): ~0.15 s
  // that a first answer does not need (issue 33).
  const world = demo ? lazyWorld(() => demoWorld(demo.anchor)) : undefined;
  markPhase('demo state');
  // The worker drives the demo world's clock only when it shares the process (and the world) with the API.
  const replay = world && demo && role === 'all' && config.seedDemo ? { world, state: demo } : undefined;
  let leaderboardCache: LeaderboardCache | undefined;
  // One set of metrics for the process: the API's requests and the worker's jobs side by side.
  const metrics = createMetrics(config, database.db);
  const app =
    role === 'worker'
      ? undefined
      : await buildApp({
          config,
          database,
          tokenCipher: await openTokenCipher(config, startupLog),
          ...(world
            ? { simulatedWorld: world, simulatedClockFollowsWall: !replay, simulatedOAuthOnWallClock: true }
            : {}),
          onLeaderboardCache: (cache) => (leaderboardCache = cache),
          // A console write that changes Mana shows at once where the worker runs in this process.
          afterManaChange: async () => {
            await worker?.worker.runJob('totals');
          },
          metrics,
        });
  const log = app?.log ?? pino({ level: config.logLevel });
  markPhase('app built');
  logPhasesTo(log);
  handlers.connectionLost = (error) =>
    log.error({ err: error }, 'PostgreSQL connection lost; the pool opens another');
  if (role === 'worker' && simulated) {
    // Its simulated X is the one an API process on this PORT serves (its own world and sign-ins).
    log.warn(
      { x: config.x.apiBaseUrl },
      'worker: no X credentials, so it calls the simulated X of the API process on this PORT; for several processes run `npm run x-sim` and set the X_* variables (docs/operations.md)',
    );
  }
  // Memory the start, the demo's replay and bursts of load leave behind goes back to the system once quiet.
  const memoryTrim = await startMemoryTrim(log, config.memoryTrimSeconds * 1000);
  const worker: WorkerRuntime | undefined =
    role === 'api'
      ? undefined
      : await createWorkerRuntime({
          config,
          database,
          log,
          ...(replay ? { demo: replay } : {}),
          onTotalsChanged: () => leaderboardCache?.invalidate(),
          metrics,
        });
  markPhase('worker prepared');
  // Operator commands typed while this server owns the embedded database are carried out here (ADR 008).
  const socket = database.lock?.record.socket;
  const channel: OwnerChannel | undefined = socket
    ? await startOwnerChannel({
        socket,
        token: database.lock?.record.token ?? '',
        context: {
          db: database.db,
          ...(database.pglite ? { pglite: database.pglite } : {}),
          monthlyReadCap: config.x.monthlyReadCap,
          officialHandles: officialHandleRule(config.socialNetwork),
        },
        afterWrite: async () => {
          await worker?.worker.runJob('totals');
          leaderboardCache?.invalidate();
        },
        log,
      })
    : undefined;
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsServer(metrics, { port: config.metrics.port, host: config.metrics.host });
  if (metricsServer) log.info(`metrics served at ${metricsServer.url}`);
  markPhase('owner channel');
  log.info(
    {
      database: database.kind,
      applied: migration.applied,
      dataDir: database.kind === 'pglite' ? config.dataDir : undefined,
    },
    'database ready',
  );
  // PGlite's file bundle is let go as it opens (db/pglite-file-bundle.ts), unless this PGlite is not as expected.
  if (database.fileBundle && 'skipped' in database.fileBundle)
    log.info({ reason: database.fileBundle.skipped }, "PGlite's file bundle stays in memory");
  else if (database.fileBundle) log.debug(database.fileBundle, "PGlite's file bundle let go");
  if (config.seedDemo) {
    const added = await seedDemoIfEmpty(database.db);
    if (added > 0) {
      log.info({ announcements: added }, 'empty database: demo content added (SEED_DEMO=false skips this)');
    }
  }
  markPhase('demo content');

  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await channel?.close();
      await worker?.stop();
      await app?.close();
      await metricsServer?.close();
      await database.close();
      memoryTrim.stop();
      process.exit(exitCode);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  handlers.databaseStopped = (error) => {
    log.fatal({ err: error }, 'the embedded database stopped; the server stops');
    void shutdown('database stopped', 1);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (app) {
    await app.listen({ port: config.port, host: config.host });
    markPhase('listening');
    log.info(`Manaboard is serving ${config.publicOrigin}`);
  }
  // From here a stalled loop keeps requests waiting: the start before it (modules compiled, the worker's runtime
  // loaded, ~0.3 s of one thread) held no API request (only the owner channel and a metrics port were open), and
  // would count in the first window as a stall of the serving loop. A worker process, which never listens, logs
  // from when its start is done.
  if (config.logEventLoopSeconds > 0) {
    monitorEventLoop(log, { everyMs: config.logEventLoopSeconds * 1000, slowMs: config.logSlowMs });
  }
  // The code compiled so far goes to the build's compile cache now (scripts/run.mjs), not only at exit: a server
  // that is killed or crashes still leaves it for the next start. Nothing when the cache is off.
  flushCompileCache();
  // After listening: with the simulated X the worker calls this very server. After the first answer too (or half
  // a second of no request): the replay's first steps would keep a first visitor waiting (issue 33).
  if (app) await firstAnswer(app.server, FIRST_ANSWER_WAIT_MS);
  await worker?.start();
  markPhase('worker started');
  // The deployment check (npm run doctor) once the origin answers: a warning line per problem, never fatal. On X
  // it makes no paid user reads at each start; `npm run doctor` does.
  void runDoctor({ config, db: database.db, resolveOfficials: config.socialNetwork !== 'x' }).then(
    (lines) => lines.filter((l) => !l.ok).forEach((l) => log.warn(`doctor: ${l.text}`)),
    (error: unknown) =>
      log.warn(`doctor: the check stopped (${error instanceof Error ? error.message : String(error)})`),
  );
}
