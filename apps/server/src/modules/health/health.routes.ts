import type { FastifyPluginAsync } from 'fastify';

/** `GET /healthz`: the process is up. `GET /readyz`: the database answers too (load balancers route on it). */
export const healthRoutes: FastifyPluginAsync<{ ping: () => Promise<boolean> }> = async (app, { ping }) => {
  app.get('/healthz', async (_request, reply) => {
    return reply.header('Cache-Control', 'no-store').send({ status: 'ok' });
  });
  app.get('/readyz', async (_request, reply) => {
    const ready = await ping();
    return reply
      .code(ready ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: ready ? 'ok' : 'unavailable' });
  });
};
