import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  breakdownParamsSchema,
  breakdownQuerySchema,
  dailyLimitUserParamsSchema,
  leaderboardQuerySchema,
  type LeaderboardQuery,
} from '@manaboard/contract';
import { browserIdSchema, hashBrowserId } from '../identity/browser-id';
import { breakdownOf } from './breakdown.service';
import { sendStored, storedAnswer } from '../../http/representations';
import { totalsStamp } from '../mana/totals.repository';
import { weekKeyMemo } from '../mana/scoring';
import { LeaderboardCache } from './leaderboard-cache';
import { dailyLimit, dailyLimitOf, manaPage, postsPage, type LeaderboardDeps } from './leaderboard.service';

export type LeaderboardRouteOptions = LeaderboardDeps & {
  /** How long a cached answer lives at most (0 turns the cache off); changes of the totals drop it sooner. */
  cacheMs?: number;
  /** Called with the cache, so an in-process worker can invalidate it when totals change. */
  onCache?: (cache: LeaderboardCache) => void;
};

/** Browsers and CDNs may reuse a page briefly; the ETag makes revalidation cheap. */
const CACHE_CONTROL = 'public, max-age=15, stale-while-revalidate=60';

/**
 * The community API's leaderboard reads (SPEC §7): `/api/mana`, `/api/posts`, `/api/daily-post-limit` and
 * `/api/daily-post-limit/user/:authorId`, and each author's breakdown. Answers are served pre-serialised from the leaderboard cache with
 * Cache-Control and an ETag; bad parameters are 400 `{success:false, error}`.
 */
export const leaderboardRoutes: FastifyPluginAsyncZod<LeaderboardRouteOptions> = async (app, options) => {
  const deps: LeaderboardDeps = { db: options.db, now: options.now, postUrl: options.postUrl };
  const cacheMs = options.cacheMs ?? 60_000;
  const cache = new LeaderboardCache(async () => (await totalsStamp(options.db)).version, {
    checkMs: Math.min(1_000, cacheMs),
    maxEntries: 2_000,
    maxAgeMs: cacheMs,
  });
  options.onCache?.(cache);

  const send = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: () => string,
    build: () => Promise<unknown>,
  ) => {
    // Cache off (LEADERBOARD_CACHE=off): a fresh answer each time, compressed for this request only.
    if (cacheMs === 0) return sendStored(request, reply, storedAnswer(await build()), CACHE_CONTROL);
    const answer = cache.peek(key()) ?? (await cache.get(key(), build));
    // The same request is answered before the router while the cache still holds this answer for its key (the
    // key is asked again each time: a weekly board's changes with the week).
    return sendStored(request, reply, answer, CACHE_CONTROL, () => cache.peek(key()));
  };
  const weekOf = weekKeyMemo();
  // A key's one changing part is the week: the same string is given back until the week changes, so a repeated
  // read (asked again before the router for every request: stored-reads.ts) builds no string and hashes none.
  const keyOf = (route: string, q: LeaderboardQuery): (() => string) => {
    const rest = `|${q.limit}|${q.offset}|${q.search}`;
    if (!q.weekly) {
      const key = `${route}|all${rest}`;
      return () => key;
    }
    let week = '';
    let key = '';
    return () => {
      const now = weekOf(deps.now());
      if (now !== week) {
        week = now;
        key = `${route}|${week}${rest}`;
      }
      return key;
    };
  };

  // Answers are sent as stored bytes in the negotiated encoding: @fastify/compress keeps out (compress: false).
  const stored = { schema: { querystring: leaderboardQuerySchema }, compress: false } as const;
  app.get('/api/mana', stored, (request, reply) =>
    send(request, reply, keyOf('mana', request.query), () => manaPage(deps, request.query)),
  );
  app.get('/api/posts', stored, (request, reply) =>
    send(request, reply, keyOf('posts', request.query), () => postsPage(deps, request.query)),
  );
  app.get('/api/daily-post-limit', { compress: false }, (request, reply) =>
    send(
      request,
      reply,
      () => 'daily-limit',
      () => dailyLimit(deps),
    ),
  );
  // Per viewer (a member sees their referees' handles): never shared by caches, never cached here.
  app.get(
    '/api/mana/:authorId/breakdown',
    { schema: { params: breakdownParamsSchema, querystring: breakdownQuerySchema } },
    async (request, reply) => {
      const header = request.headers['x-user-id'];
      const browserId =
        typeof header === 'string' && browserIdSchema.safeParse(header).success ? header : null;
      const body = await breakdownOf(deps, {
        authorId: request.params.authorId,
        weekly: request.query.weekly,
        viewerBrowserHash: browserId ? hashBrowserId(browserId) : null,
      });
      return reply.header('Cache-Control', 'private, no-store').send(body);
    },
  );
  app.get(
    '/api/daily-post-limit/user/:authorId',
    { schema: { params: dailyLimitUserParamsSchema }, compress: false },
    (request, reply) => {
      const { authorId } = request.params;
      const key = () => `daily-limit|${new Date(deps.now()).toISOString().slice(0, 10)}|${authorId}`;
      return send(request, reply, key, () => dailyLimitOf(deps, authorId));
    },
  );
};
