import type { FastifyPluginAsync } from 'fastify';
import type { PublicConfigResponse } from '@manaboard/contract';

/** `GET /api/public/config`: the deployment facts the web app reads at run time. */
export const publicConfigRoutes: FastifyPluginAsync<{ simulated: boolean }> = async (app, { simulated }) => {
  const body: PublicConfigResponse = { success: true, data: { socialNetwork: 'x', simulated } };
  app.get('/api/public/config', async (_request, reply) => {
    return reply.header('Cache-Control', 'public, max-age=300').send(body);
  });
};
