import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { announcementsQuerySchema } from '@manaboard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { ifNoneMatchHits } from '../../http/etag';
import { listPublished } from './announcements.service';

/**
 * How long this process reuses a serialised page. Operators change announcements from another process (the
 * CLI), so there is nothing to invalidate here; browsers and CDNs already accept 30 s (Cache-Control), and 5 s
 * keeps visitor traffic from reaching the database more than once per page per 5 s.
 */
export const ANNOUNCEMENTS_CACHE_MS = 5_000;

type CachedPage = { json: string; etag: string; expiresAt: number };

/** Public What's New feed (SPEC §7 Announcements). Cacheable by browsers and CDNs, revalidated by ETag. */
export const announcementsRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; cacheMs?: number }> = async (
  app,
  { db, cacheMs = ANNOUNCEMENTS_CACHE_MS },
) => {
  const cache = new Map<string, CachedPage>();

  const page = async (pageNumber: number, limit: number): Promise<CachedPage> => {
    const key = `${pageNumber}:${limit}`;
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now) return hit;
    const json = JSON.stringify(await listPublished(db, { page: pageNumber, limit }));
    const fresh = {
      json,
      etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
      expiresAt: now + cacheMs,
    };
    // Bounded: page × limit combinations beyond a few hundred are not worth keeping.
    if (cache.size > 200) cache.clear();
    cache.set(key, fresh);
    return fresh;
  };

  app.get(
    '/api/public/announcements',
    // The body is built from typed rows and sent pre-serialised (its ETag is the hash of those bytes);
    // tests parse it with the contract's announcementsResponseSchema.
    { schema: { querystring: announcementsQuerySchema } },
    async (request, reply) => {
      const { json, etag } = await page(request.query.page, request.query.limit);
      void reply
        .header('Cache-Control', 'public, max-age=30, stale-while-revalidate=300')
        .header('ETag', etag);
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
};
