import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { breakdownParamsSchema, recordsQuerySchema } from '@manaboard/contract';
import { sendStored, storedAnswer } from '../../http/representations';
import { browserIdSchema, hashBrowserId } from '../identity/browser-id';
import { LeaderboardCache } from '../leaderboard/leaderboard-cache';
import { totalsStamp } from '../mana/totals.repository';
import { lineRecords, type RecordsDeps } from './records.service';

/** Browsers and CDNs may reuse a page briefly (records arrive with the stream); the ETag makes revalidation cheap. */
const CACHE_CONTROL = 'public, max-age=15, stale-while-revalidate=60';

/**
 * `GET /api/mana/:authorId/records?line=post|referral|interaction&post=&page=&limit=` (issue 30): the records
 * behind a breakdown line. A post's and the interactions' are the same for everyone: sent as stored bytes with an
 * ETag and Cache-Control, like the other public reads. The referrals' name the referees only to the member
 * themself (by X-User-Id): never shared by caches. Bad parameters are 400 `{success:false, error}`.
 */
export const recordsRoutes: FastifyPluginAsyncZod<RecordsDeps & { cacheMs?: number }> = async (
  app,
  options,
) => {
  const { cacheMs = 5_000, ...deps } = options;
  // Answers kept a few seconds (the Cache-Control lets browsers keep them 15 s anyway), and dropped sooner when
  // the worker's totals change: a popular post's page is built once, not once per viewer.
  const cache = new LeaderboardCache(async () => (await totalsStamp(deps.db)).version, {
    checkMs: Math.min(1_000, cacheMs),
    maxEntries: 2_000,
    maxAgeMs: cacheMs,
  });
  app.get(
    '/api/mana/:authorId/records',
    { schema: { params: breakdownParamsSchema, querystring: recordsQuerySchema }, compress: false },
    async (request, reply) => {
      const { query } = request;
      if (query.line !== 'referral' && cacheMs > 0) {
        const key = `${request.params.authorId}|${query.line}|${query.post ?? ''}|${query.page}|${query.limit}`;
        const build = () =>
          lineRecords(deps, { authorId: request.params.authorId, query, viewerBrowserHash: null });
        return sendStored(request, reply, cache.peek(key) ?? (await cache.get(key, build)), CACHE_CONTROL);
      }
      const header = request.headers['x-user-id'];
      const browserId =
        request.query.line === 'referral' &&
        typeof header === 'string' &&
        browserIdSchema.safeParse(header).success
          ? header
          : null;
      const body = await lineRecords(deps, {
        authorId: request.params.authorId,
        query: request.query,
        viewerBrowserHash: browserId ? hashBrowserId(browserId) : null,
      });
      const cacheControl = request.query.line === 'referral' ? 'private, no-store' : CACHE_CONTROL;
      return sendStored(request, reply, storedAnswer(body), cacheControl);
    },
  );
};
