import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { sendFailure } from '../../http/error-handler';
import type { Metrics } from './metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the bearer token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return !!match?.[1] && timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * `GET /metrics` on the public port, only when METRICS_TOKEN is set, and only with `Authorization: Bearer
 * <token>` (401 otherwise): metrics tell an outsider more than they should (traffic, budget, lag). Without a
 * token the route does not exist (404); METRICS_PORT serves them on a loopback port instead (metrics-server.ts).
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string }> = async (
  app,
  { metrics, token },
) => {
  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return sendFailure(request, reply, {
        status: 401,
        code: 'UNAUTHORIZED',
        message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>',
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    const { body, contentType } = await metrics.exposition();
    return reply.type(contentType).header('Cache-Control', 'no-store').send(body);
  });
};
