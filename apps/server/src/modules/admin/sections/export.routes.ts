import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRewardsExportResponseSchema, rewardsExportQuerySchema } from '@manaboard/contract/admin';
import { rewardsCsv } from '../../rewards-export/rewards-csv';
import { exportRewards } from '../../rewards-export/rewards-export.service';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * Section 6, rewards export: the leaderboard of an ISO week or all time (rank, handle, network user id, Mana,
 * posts, referrals) as JSON (`/export`) or as a CSV download (`/export.csv`), so the community can distribute rewards from it.
 */
export const adminExportRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, { db, now }) => {
  app.get(
    '/export',
    {
      schema: { querystring: rewardsExportQuerySchema, response: { 200: adminRewardsExportResponseSchema } },
    },
    async (request) => ({
      success: true as const,
      data: await exportRewards(db, request.query, new Date(now())),
    }),
  );

  app.get('/export.csv', { schema: { querystring: rewardsExportQuerySchema } }, async (request, reply) => {
    const data = await exportRewards(db, request.query, new Date(now()));
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="manaboard-rewards-${data.period}.csv"`)
      .header('X-Content-Type-Options', 'nosniff')
      .send(rewardsCsv(data.rows));
  });
};
