import { buildApp, createMetrics } from './composition/app';
import { ConfigError, loadConfig } from './config/config';
import { migrateToLatest } from './db/migrate';
import { openConfiguredDatabase } from './db/open-from-config';
import { DatabaseInUseError } from './db/owner-lock';
import { startOwnerChannel, type OwnerChannel } from './operator/owner-channel';
import { seedDemoIfEmpty } from './modules/announcements/demo-seed';
import { openTokenCipher } from './security/token-vault';
import { flushCompileCache } from 'node:module';
import pino from 'pino';
import { demoWorld, simulatedXBase } from './integrations/x/x-simulation';
import { lazyWorld } from '@manaboard/x-sim';
import { followDemoOrigin } from './modules/mana/demo-origin';
import type { LeaderboardCache } from './modules/leaderboard/leaderboard-cache';
import { demoState } from './modules/mana/demo-state.service';
import { createWorkerRuntime, type WorkerRuntime } from './composition/worker-runtime';
import { startMetricsServer } from './modules/metrics/metrics-server';
import { monitorEventLoop } from './lib/event-loop-monitor';
import { officialHandleRule } from './integrations/official-handles';
import { seedProgrammeRules } from './modules/programme/programme-seed';
import { runDoctor } from './doctor/doctor';
import { startMemoryTrim } from './lib/memory-trim';
import { pinTickShape } from './lib/tick-shape';
import { logPhasesTo, markPhase } from './lib/start-phases';
import { firstAnswer } from './http/first-answer';

/** `npm start` runs both; `npm run start:api` / `start:worker` pass `api` / `worker` to run one of them. */
type Role = 'all' | 'api' | 'worker';

function roleOf(args: string[]): Role {
  const role = args[0] ?? 'all';
  if (role === 'all' || role === 'api' || role === 'worker') return role;
  throw new ConfigError(`Unknown role "${role}": use api, worker, or nothing for both`);
}

/** How long the worker waits for the API's first answer before it starts anyway. */
const FIRST_ANSWER_WAIT_MS = 500;

/** Warnings before the app (and its logger) exist go to stderr. */
const startupLog = { warn: (details: object, message: string) => console.warn(message, details) };

/**
 * Starts the server: configuration, database and migrations, demo content on a fresh database, then the API
 * (listening) and/or the worker. With the simulated X, `npm start` replays the demo world's history through the
 * worker first.
 */
async function main(): Promise<void> {
  // Before anything else: no full collection may forget the shape of Node's nextTick entries (tick-shape.ts).
  pinTickShape();
  markPhase('modules loaded');
  const role = roleOf(process.argv.slice(2));
  const config = loadConfig();
  markPhase('config');
  if (role !== 'all' && !config.databaseUrl) {
    // Two processes on one PGlite directory would each work on their own copy (issue 15).
    throw new ConfigError(
      `npm run start:${role} needs PostgreSQL (DATABASE_URL): the embedded database has one owner, so run the API and the worker in one process with npm start.`,
    );
  }
  // A PostgreSQL connection that dies is logged, never fatal; the logger exists only once the app does.
  let connectionLost = (error: Error) => console.error(`PostgreSQL connection lost: ${error.message}`);
  const database = await openConfiguredDatabase(config, 'server', (error) => connectionLost(error));
  markPhase('database opened');
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
  connectionLost = (error) => log.error({ err: error }, 'PostgreSQL connection lost; the pool opens another');
  if (role === 'worker' && simulated) {
    // Its simulated X is the one an API process on this PORT serves (its own world and sign-ins).
    log.warn(
      { x: config.x.apiBaseUrl },
      'worker: no X credentials, so it calls the simulated X of the API process on this PORT; for several processes run `npm run x-sim` and set the X_* variables (docs/operations.md)',
    );
  }
  // Memory the start, the demo's replay and bursts of load leave behind goes back to the system once quiet.
  const memoryTrim = await startMemoryTrim(log, config.memoryTrimSeconds * 1000);
  if (config.logEventLoopSeconds > 0) {
    monitorEventLoop(log, { everyMs: config.logEventLoopSeconds * 1000, slowMs: config.logSlowMs });
  }
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
  if (config.seedDemo) {
    const added = await seedDemoIfEmpty(database.db);
    if (added > 0) {
      log.info({ announcements: added }, 'empty database: demo content added (SEED_DEMO=false skips this)');
    }
  }
  markPhase('demo content');

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
      await channel?.close();
      await worker?.stop();
      await app?.close();
      await metricsServer?.close();
      await database.close();
      memoryTrim.stop();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (app) {
    await app.listen({ port: config.port, host: config.host });
    markPhase('listening');
    log.info(`Manaboard is serving ${config.publicOrigin}`);
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

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseInUseError) {
    console.error(error.message);
  } else {
    console.error('Manaboard failed to start:', error);
  }
  process.exit(1);
});
