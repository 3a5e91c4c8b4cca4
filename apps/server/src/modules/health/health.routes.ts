import type { FastifyPluginAsync } from 'fastify';
import { sendStored, storedAnswer } from '../../http/representations';
import { checkReadiness, type ReadinessDeps } from './readiness.service';

const HEALTHY = storedAnswer({ status: 'ok' });

/**
 * `GET /healthz`: the process is up. `GET /readyz`: the database answers and the worker leader has run within
 * READY_WORKER_MAX_AGE_SECONDS (503 with the reason otherwise; orchestrators and alerts watch it); 200
 * `degraded` with the reason while the event stream lags more than READY_STREAM_MAX_LAG_SECONDS.
 */
export const healthRoutes: FastifyPluginAsync<ReadinessDeps> = async (app, deps) => {
  // One stored answer for the life of the process, so a probe's repeated request is answered before the router
  // (http/stored-reads.ts). A 15-byte answer is never compressed (under the 1 KiB threshold): compress: false
  // spares the check.
  app.get('/healthz', { compress: false }, (request, reply) =>
    sendStored(request, reply, HEALTHY, 'no-store', () => HEALTHY),
  );
  app.get('/readyz', async (_request, reply) => {
    const readiness = await checkReadiness(deps);
    void reply.header('Cache-Control', 'no-store');
    if (readiness.ready && readiness.degraded) {
      return reply.code(200).send({ status: 'degraded', ...readiness.degraded });
    }
    if (readiness.ready) return reply.code(200).send({ status: 'ok' });
    return reply.code(503).send({ status: 'unavailable', reason: readiness.reason });
  });
};
