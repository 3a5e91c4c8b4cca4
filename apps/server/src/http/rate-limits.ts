import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config/config';
import { CatalogueError } from '../lib/errors';
import { browserIdSchema, hashBrowserId } from '../modules/identity/browser-id';

/**
 * Route classes with their own budgets: CSRF tokens, linking, applying a referrer, reads, and the other writes
 * (unlink, referral link), which change state and so get a tighter budget than reads.
 */
export type RouteClass = 'token' | 'auth' | 'apply' | 'read' | 'write';

/**
 * What a route does instead of the JSON 429 when over its limit: a full-page navigation (X's return to the
 * callback) is better sent to a page than shown raw JSON. Must send the reply.
 */
export type OnExceeded = (reply: FastifyReply, retryAfterSeconds: number) => FastifyReply;

/** Gives the onRequest hook that limits a route of the given class. */
export type RateLimits = (routeClass: RouteClass, onExceeded?: OnExceeded) => onRequestAsyncHookHandler;

/** Seconds to wait when over a limit, 0 when the request may go on. */
type Counter = (request: FastifyRequest) => Promise<number>;

const WINDOW_MS = 60_000;

/**
 * The public reads (route patterns): cached, meant to sit behind a CDN, so never limited by default. An operator
 * may set a ceiling per client IP (RATE_LIMIT_PUBLIC_READ_PER_MINUTE).
 */
export const PUBLIC_READ_ROUTES: ReadonlySet<string> = new Set([
  '/api/mana',
  '/api/mana/:authorId/breakdown',
  '/api/mana/:authorId/records',
  '/api/ledger',
  '/api/ledger/:week',
  '/api/ledger/:week/:edition',
  '/api/ledger/:week/proof',
  '/api/posts',
  '/api/daily-post-limit',
  '/api/daily-post-limit/user/:authorId',
  '/api/public/announcements',
]);

function browserIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-user-id'];
  return typeof header === 'string' && browserIdSchema.safeParse(header).success ? header : undefined;
}

/**
 * Per-minute limits for each route class, counted twice: per browser id (its hash: the id is a secret) and per
 * client IP (`request.ip`, which honours TRUST_PROXY; an IP gets `ipFactor` times a browser's budget, as many
 * browsers can share one address). Counters live in Redis when REDIS_URL is set, so every API process shares
 * them; otherwise in this process. Over either limit → 429 RATE_LIMIT_EXCEEDED with Retry-After.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Pick<Config, 'rateLimits' | 'redisUrl'>,
  namespace = 'manaboard-rl:',
): Promise<RateLimits> {
  const redis = config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: namespace } : {}),
  });

  limitPublicReads(app, config.rateLimits.publicRead);

  const counters = new Map<RouteClass, Counter>();
  const build = (routeClass: RouteClass): Counter => {
    const perBrowser = config.rateLimits[routeClass];
    const byIp = app.createRateLimit({
      max: perBrowser * config.rateLimits.ipFactor,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `${routeClass}:ip:${request.ip}`,
    });
    const byBrowser = app.createRateLimit({
      max: perBrowser,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `${routeClass}:b:${hashBrowserId(browserIdOf(request) ?? '')}`,
    });
    return async (request) => {
      const results = [await byIp(request)];
      if (browserIdOf(request)) results.push(await byBrowser(request));
      let retryAfter = 0;
      for (const result of results) {
        if (!result.isAllowed && result.isExceeded) retryAfter = Math.max(retryAfter, result.ttlInSeconds, 1);
      }
      return retryAfter;
    };
  };
  return (routeClass, onExceeded) => {
    // One pair of counters per class, however many routes share it.
    let counter = counters.get(routeClass);
    if (!counter) {
      counter = build(routeClass);
      counters.set(routeClass, counter);
    }
    const count = counter;
    return async (request, reply) => {
      const retryAfter = await count(request);
      if (retryAfter === 0) return;
      if (onExceeded) return onExceeded(reply.header('Retry-After', String(retryAfter)), retryAfter);
      throw new CatalogueError(429, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': String(retryAfter) });
    };
  };
}

/**
 * The operator's optional ceiling on the public reads: per client IP only (visitors carry no browser id), one
 * budget shared by every public read route. Unset: no hook at all, so the reads pay nothing for it.
 */
function limitPublicReads(app: FastifyInstance, perMinute: number | undefined): void {
  if (perMinute === undefined) return;
  const byIp = app.createRateLimit({
    max: perMinute,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `public:ip:${request.ip}`,
  });
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (!PUBLIC_READ_ROUTES.has(request.routeOptions.url ?? '')) return;
    const result = await byIp(request);
    if (!result.isAllowed && result.isExceeded) {
      const retryAfter = String(Math.max(result.ttlInSeconds, 1));
      throw new CatalogueError(429, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': retryAfter });
    }
  });
}

/**
 * The shared counter store. Commands fail at once while Redis is away (no offline queue): the limiter then lets
 * requests through (skipOnError) instead of making every request wait for a reconnect, and the outage is
 * logged. Start-up waits briefly for the first connection so counting starts with the first request. ioredis is
 * imported here only: a server without REDIS_URL never loads it.
 */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  // The default export (ioredis's module.exports, the Redis class): the bundle (scripts/build.mjs) gives an import()
  // of a CommonJS package that one only, where Node also gives the named ones.
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(url, { connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) error'));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  const ready = new Promise<boolean>((resolve) => {
    redis.once('ready', () => resolve(true));
    setTimeout(() => resolve(false), 3_000).unref();
  });
  if (!(await ready)) app.log.warn('rate-limit store (Redis) not reachable yet; limits apply once it is');
  return redis;
}
