import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { announcementsQuerySchema } from '@manaboard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { sendStored, storedAnswer, type StoredAnswer } from '../../http/representations';
import { listPublished } from './announcements.service';

/**
 * How long this process reuses a serialised page. Operators change announcements from another process (the
 * CLI), so there is nothing to invalidate here; browsers and CDNs already accept 30 s (Cache-Control), and 5 s
 * keeps visitor traffic from reaching the database more than once per page per 5 s.
 */
export const ANNOUNCEMENTS_CACHE_MS = 5_000;

/** A stored answer (compressed once per encoding on first demand) and when it stops being reused. */
type CachedPage = StoredAnswer & { expiresAt: number };

/** Public What's New feed (SPEC §7 Announcements). Cacheable by browsers and CDNs, revalidated by ETag. */
export const announcementsRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; cacheMs?: number }> = async (
  app,
  { db, cacheMs = ANNOUNCEMENTS_CACHE_MS },
) => {
  const cache = new Map<string, CachedPage>();

  /** The page still fresh in the cache, if any. */
  const kept = (key: string): CachedPage | undefined => {
    const hit = cache.get(key);
    return hit && hit.expiresAt > Date.now() ? hit : undefined;
  };
  const page = async (key: string, pageNumber: number, limit: number): Promise<CachedPage> => {
    const hit = kept(key);
    if (hit) return hit;
    const now = Date.now();
    const fresh = {
      ...storedAnswer(await listPublished(db, { page: pageNumber, limit })),
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
    // Stored bytes in the negotiated encoding (representations.ts), so @fastify/compress keeps out.
    { schema: { querystring: announcementsQuerySchema }, compress: false },
    async (request, reply) => {
      const key = `${request.query.page}:${request.query.limit}`;
      const answer = await page(key, request.query.page, request.query.limit);
      // The same request is answered before the router while this page is the cache's (http/stored-reads.ts).
      return sendStored(request, reply, answer, 'public, max-age=30, stale-while-revalidate=300', () =>
        kept(key),
      );
    },
  );
};
