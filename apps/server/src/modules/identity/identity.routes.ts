import type { FastifyPluginAsync } from 'fastify';
import { CatalogueError } from '../../errors';
import type { RateLimits } from '../../http/rate-limits';
import { okReply } from '../../http/referral-replies';
import { routeFamilyOf } from '../../http/route-families';
import { requireBrowserIdHash } from './browser-id';
import type { CsrfTokens } from './csrf';

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `GET /csrf-token` (SPEC §7) and the CSRF guard: every write to the referral service (and, later, the admin
 * API) needs `X-CSRF-Token` issued to the same browser. Missing → 403 CSRF_TOKEN_REQUIRED; bad, stale or another
 * browser's → 403 CSRF_INVALID (the client refetches and retries once).
 */
export const identityRoutes: FastifyPluginAsync<{ csrf: CsrfTokens; limits: RateLimits }> = async (
  app,
  { csrf, limits },
) => {
  app.get('/csrf-token', { onRequest: limits('token') }, async (request, reply) => {
    const browserHash = requireBrowserIdHash(request);
    const { token } = csrf.issue(browserHash);
    return reply.header('Cache-Control', 'no-store').send(okReply({ csrfToken: token }));
  });
};

/** The guard as a root hook (it must see every route, so it is not encapsulated in a plugin). */
export function csrfGuard(csrf: CsrfTokens) {
  return async (request: Parameters<typeof requireBrowserIdHash>[0]) => {
    // Unknown paths answer 404 whatever the headers.
    if (request.is404) return;
    if (!writeMethods.has(request.method) || routeFamilyOf(request.url) !== 'referral') return;
    const browserHash = requireBrowserIdHash(request);
    const header = request.headers['x-csrf-token'];
    const token = Array.isArray(header) ? undefined : header;
    if (!token) throw new CatalogueError(403, 'CSRF_TOKEN_REQUIRED');
    if (csrf.check(browserHash, token) !== 'valid') throw new CatalogueError(403, 'CSRF_INVALID');
  };
}
