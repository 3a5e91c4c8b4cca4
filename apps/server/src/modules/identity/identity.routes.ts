import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import { CatalogueError } from '../../lib/errors';
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

/** Whether a route takes any write method (a route may list several methods). */
export function takesWrites(method: RouteOptions['method']): boolean {
  return (Array.isArray(method) ? method : [method]).some((name) => writeMethods.has(name));
}

/**
 * The guard on every write route, before the route's own preHandlers, as a root hook would run it. Reads never
 * pay for it (a root preHandler was an extra async step on every GET); unknown paths still answer 404 first.
 * Must be called before any route is registered.
 */
export function guardWrites(app: FastifyInstance, csrf: CsrfTokens): void {
  const guard = csrfGuard(csrf);
  app.addHook('onRoute', (route) => {
    if (!takesWrites(route.method)) return;
    const own = route.preHandler;
    route.preHandler = own === undefined ? [guard] : [guard, ...(Array.isArray(own) ? own : [own])];
  });
}
