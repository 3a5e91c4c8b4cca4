import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type onResponseHookHandler } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { ConnectionGuard } from '../http/client-errors';
import { registerErrorHandler } from '../http/error-handler';
import { rememberingQueries } from '../http/query-validation';
import { registerSecurity } from '../http/security';
import { registerWebApp } from '../http/web-app';
import { logsEveryRequest, requestLogController } from '../http/request-log';
import { StoredReads } from '../http/stored-reads';
import { loggerOptions } from '../lib/logger';
import { demoWorld, mountSimulatedX } from '../integrations/x/x-simulation';
import { lazyWorld, type World } from '@manaboard/x-sim';
import { announcementsRoutes } from '../modules/announcements/announcements.routes';
import { healthRoutes } from '../modules/health/health.routes';
import { Metrics } from '../modules/metrics/metrics';
import { metricsRoutes } from '../modules/metrics/metrics.routes';
import { storedStreamReading } from '../modules/stream-progress/stream-progress.service';
import { publicConfigRoutes } from '../modules/public-config/public-config.routes';
import { recordsRoutes } from '../modules/records/records.routes';
import { recordProofsRoutes } from '../modules/record-proofs/record-proofs.routes';
import { leaderboardRoutes } from '../modules/leaderboard/leaderboard.routes';
import { ledgerRoutes } from '../modules/ledger/ledger.routes';
import { publishesLedger } from '../integrations/ledger-publishing';
import { programmeRoutes, type ProgrammeCache } from '../modules/programme/programme.routes';
import type { LeaderboardCache } from '../modules/leaderboard/leaderboard-cache';
import { CsrfTokens } from '../modules/identity/csrf';
import { guardWrites, identityRoutes, takesWrites } from '../modules/identity/identity.routes';
import { loadOrCreateSecret } from '../modules/identity/server-secrets.repository';
import { systemClock, type Clock } from '../integrations/x/clock';
import { monthReads } from '../integrations/x/x-budget.repository';
import type { Db } from '../db/schema';
import { registerRateLimits } from '../http/rate-limits';
import { linkingRoutes } from '../modules/linking/linking.routes';
import { appealsRoutes } from '../modules/appeals/appeals.routes';
import { referralsRoutes } from '../modules/referrals/referrals.routes';
import type { ReferralDeps } from '../modules/referrals/referrals.service';
import type { LinkingDeps } from '../modules/linking/linking.service';
import { TokenVault } from '../security/token-vault';
import type { TokenCipher } from '../security/token-cipher';
import { networkOf } from './app-network';
import { officialHandleRule } from '../integrations/official-handles';
import { networkJobs } from '../integrations/network-jobs';
import { workerSchedule } from '../jobs/worker-schedule';
import { networkUsageSource } from './network-usage';
import { adminScope } from '../modules/admin/admin-scope';
import { adminSections } from '../modules/admin/admin-sections';
import { adminAuthRoutes, adminCallbackHandler } from '../modules/admin/admin-auth.routes';

/** What the app is built from; tests pass their own database and log stream. */
export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  logStream?: DestinationStream;
  /**
   * The simulated X's world when X is simulated (tests pass their own; default: the demo world), or a function
   * that builds it once (x-sim's `lazyWorld`): built at the first request that needs it.
   */
  simulatedWorld?: World | (() => World);
  /** How long a served announcements page is reused (tests that write and read back use 0). */
  announcementsCacheMs?: number;
  /** How long leaderboard answers are reused at most (0: never); totals changes drop them sooner. */
  leaderboardCacheMs?: number;
  /** Receives the leaderboard cache, so an in-process worker can drop it when totals change. */
  onLeaderboardCache?: (cache: LeaderboardCache) => void;
  /** Whether the simulated world's clock catches up with the wall clock on each request (default: demo world only). */
  simulatedClockFollowsWall?: boolean;
  /** Whether the simulated X's OAuth codes and tokens live on the wall clock (the demo; tests use simulated time). */
  simulatedOAuthOnWallClock?: boolean;
  /** Time for OAuth attempts, tokens and the anti-bot gate (tests pass the simulated X's clock). */
  clock?: Clock;
  /** The key for X tokens at rest; default: TOKEN_ENCRYPTION_KEY, or a key generated into DATA_DIR. */
  tokenCipher?: TokenCipher;
  /** Prefix of the rate-limit counters in Redis (tests use their own, so runs never share counters). */
  rateLimitNamespace?: string;
  /** The process's metrics, shared with an in-process worker (default: the app's own). */
  metrics?: Metrics;
  /** Runs after a console write that changes Mana (main: the in-process worker's totals run). */
  afterManaChange?: () => Promise<void>;
  /** Sees every route as it is registered (tests enumerate the admin routes with it). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
};

/** The process's metrics, the monthly-reads gauge read from the network's budget ledger. */
export function createMetrics(config: Config, db: Db): Metrics {
  const metrics = new Metrics({ db, monthlyReadCap: config.x.monthlyReadCap });
  metrics.watchMonthReads(() => monthReads(db, new Date()));
  // The leader's stored progress; a process whose worker reports the stream reads its own memory instead.
  metrics.watchStream(() => storedStreamReading(db, new Date(), config.stream.maxLagSeconds));
  return metrics;
}

/**
 * The one per-request metrics cost: a histogram observation labelled by the route pattern, never the raw URL.
 * Each route gets its own onResponse hook that knows its pattern, so a request never builds
 * `request.routeOptions` (a new object each time it is read) for it; a path no route matches is `unmatched`,
 * counted by the root hook, the only one a 404 of Fastify's runs. Must be called before any route is registered.
 */
function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const observe: onResponseHookHandler = (request, reply, done) => {
      metrics.observeRequest(pattern, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [observe] : [...(Array.isArray(own) ? own : [own]), observe];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      metrics.observeRequest('unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });
}

export const BODY_LIMIT_BYTES = 16 * 1024;

function logControl(config: Config) {
  const logController = requestLogController({
    level: config.logLevel,
    slowMs: config.logSlowMs,
    sampleRate: config.logSampleRate,
  });
  return logController ? { logController } : {};
}

/** Builds the Fastify instance with every route; never listens (main.ts does, tests use inject). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  // One answer per request, however a client frames (or fails to frame) what it sends (http/client-errors.ts).
  const connections = new ConnectionGuard();
  const metrics = deps.metrics ?? createMetrics(config, database.db);
  // Repeated public reads answered before the router (http/stored-reads.ts); off where every request must pass
  // Fastify: a line per request (debug, trace) or a rate limit on the public reads.
  const storedReads = new StoredReads({
    enabled: !logsEveryRequest(config.logLevel) && config.rateLimits.publicRead === undefined,
    sampleRate: config.logSampleRate,
    slowMs: config.logSlowMs,
    log: {
      warn: (details, message) => app.log.warn(details, message),
      info: (details, message) => app.log.info(details, message),
    },
    observer: (pattern, method, status) => metrics.requestObserver(pattern, method, status),
  });
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    // Below debug, no line per request: errors, slow ones and a sample (http/request-log.ts).
    ...logControl(config),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    ...connections.serverOptions(config.http),
    serverFactory: storedReads.serverFactory(),
  }).withTypeProvider<ZodTypeProvider>();
  connections.watch(app.server, app.log);
  app.decorate('storedReads', storedReads);
  app.addHook('preClose', (done) => {
    storedReads.close();
    done();
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  observeRequests(app, metrics);
  app.setValidatorCompiler(rememberingQueries(validatorCompiler));
  app.setSerializerCompiler(serializerCompiler);
  // Writes take JSON only: any other body (text/plain included) is a 415.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);

  await registerSecurity(app, config);

  const csrfSecret = config.csrfSecret
    ? Buffer.from(config.csrfSecret, 'utf8')
    : await loadOrCreateSecret(database.db, 'csrf');
  const csrf = new CsrfTokens(csrfSecret);
  // preHandler of each write route: after body parsing, so a 415/413 still answers first for a malformed write.
  guardWrites(app, csrf);
  // Reads carry no body: @fastify/compress's request decompression (a preParsing step) is for writes only.
  app.addHook('onRoute', (route) => {
    if (!takesWrites(route.method) && route.decompress === undefined) route.decompress = false;
  });
  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });
  const limits = await registerRateLimits(app, config, deps.rateLimitNamespace);

  const clock = deps.clock ?? systemClock;
  const vault = new TokenVault(deps.tokenCipher ?? config, app.log);
  const network = await networkOf(config, database.db, vault, clock);
  const linking: LinkingDeps = {
    db: database.db,
    network: network.linking,
    vault,
    publicOrigin: config.publicOrigin,
    now: clock.now,
    log: app.log,
  };
  const referrals: ReferralDeps = { db: database.db, rules: config.referrals, now: clock.now };

  await app.register(healthRoutes, {
    db: database.db,
    ping: database.ping,
    workerMaxAgeMs: config.readyWorkerMaxAgeMs,
    localJobRunAt: () => metrics.lastJobRunAt,
    streamLagSeconds: async () => (await storedStreamReading(database.db, new Date()))?.lagSeconds ?? null,
    streamMaxLagSeconds: config.stream.maxLagSeconds,
  });
  if (config.metrics.token) await app.register(metricsRoutes, { metrics, token: config.metrics.token });
  await app.register(identityRoutes, { csrf, limits });
  const adminAuth = { ...linking, admin: config.admin };
  await app.register(linkingRoutes, {
    linking,
    referrals,
    limits,
    otherPurposes: { admin: adminCallbackHandler(adminAuth) },
  });
  await app.register(adminAuthRoutes, { auth: adminAuth, limits });
  let leaderboardCache: LeaderboardCache | undefined;
  let programmeCache: ProgrammeCache | undefined;
  const adminOptions = {
    db: database.db,
    config,
    now: clock.now,
    csrf,
    limits,
    sections: adminSections,
    postUrl: network.postUrl,
    describeQuery: network.describeQuery,
    officialHandles: officialHandleRule(config.socialNetwork),
    schedule: workerSchedule({
      jobs: networkJobs(config.socialNetwork),
      intervalSeconds: config.workerIntervalSeconds,
    }),
    usage: networkUsageSource(config, database.db),
    databaseKind: database.kind,
    publishesLedger: publishesLedger(config),
    afterManaChange: async () => {
      await deps.afterManaChange?.();
      leaderboardCache?.invalidate();
      programmeCache?.invalidate();
    },
  };
  await app.register(adminScope, { prefix: '/api/admin', ...adminOptions });
  await app.register(appealsRoutes, { db: database.db, now: clock.now, limits });
  await app.register(referralsRoutes, { referrals, publicOrigin: config.publicOrigin, limits });
  await app.register(announcementsRoutes, {
    db: database.db,
    ...(deps.announcementsCacheMs !== undefined ? { cacheMs: deps.announcementsCacheMs } : {}),
  });
  await app.register(leaderboardRoutes, {
    db: database.db,
    now: clock.now,
    postUrl: network.postUrl,
    ...(deps.leaderboardCacheMs !== undefined ? { cacheMs: deps.leaderboardCacheMs } : {}),
    ...(deps.leaderboardCacheMs === undefined && !config.leaderboardCache ? { cacheMs: 0 } : {}),
    onCache: (cache) => {
      leaderboardCache = cache;
      metrics.watchCache(cache);
      deps.onLeaderboardCache?.(cache);
    },
  });
  await app.register(recordsRoutes, {
    db: database.db,
    pages: network.pages,
    // Off where the leaderboard's cache is off (LEADERBOARD_CACHE=off, tests), else a few seconds at most.
    ...(deps.leaderboardCacheMs !== undefined ? { cacheMs: Math.min(deps.leaderboardCacheMs, 5_000) } : {}),
    ...(deps.leaderboardCacheMs === undefined && !config.leaderboardCache ? { cacheMs: 0 } : {}),
  });
  // Beside the ledger's routes: the static `proof` segment wins over `/api/ledger/:week/:edition`.
  await app.register(recordProofsRoutes, { db: database.db });
  await app.register(programmeRoutes, { db: database.db, onCache: (cache) => (programmeCache = cache) });
  await app.register(ledgerRoutes, {
    db: database.db,
    kind: database.kind,
    network: config.socialNetwork,
    now: clock.now,
    publicOrigin: config.publicOrigin,
    sendWaitMs: config.ledgerSendWaitMs,
  });
  await app.register(publicConfigRoutes, {
    socialNetwork: linking.network.name,
    simulated: network.simulatedX,
    brandingFile: config.brandingFile,
  });
  // The network's own routes (Bluesky's OAuth client metadata and keys).
  if (network.routes) await app.register(network.routes);
  if (network.simulatedX) {
    // The demo's world follows the wall clock; a test's world keeps its own simulated time; the demo feed
    // (main.ts) drives its world's clock itself while it replays the history.
    await mountSimulatedX(app, config, deps.simulatedWorld ?? lazyWorld(() => demoWorld()), {
      followWallClock: deps.simulatedClockFollowsWall ?? !deps.simulatedWorld,
      oauthOnWallClock: deps.simulatedOAuthOnWallClock ?? !deps.simulatedWorld,
    });
  }
  await registerWebApp(app, config.webDistDir);

  return app;
}
