import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  adminAppealAnswerBodySchema,
  adminAppealParamsSchema,
  adminAppealResponseSchema,
  adminAppealsResponseSchema,
  appealListQuerySchema,
} from '@manaboard/contract/admin';
import { answerAppeal, listAppeals } from '../../appeals/appeals.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * Members → appeals: the open (or all) appeals, and the operator's answer, which then shows on the member's
 * card. The same service the `npm run mana -- answer` command uses.
 */
export const adminAppealsRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, { db, now }) => {
  app.get(
    '/appeals',
    { schema: { querystring: appealListQuerySchema, response: { 200: adminAppealsResponseSchema } } },
    async (request) => ({ success: true as const, data: await listAppeals(db, request.query) }),
  );

  app.post(
    '/appeals/:appealId/answer',
    {
      schema: {
        params: adminAppealParamsSchema,
        body: adminAppealAnswerBodySchema,
        response: { 200: adminAppealResponseSchema },
      },
    },
    async (request) => {
      const appeal = await answerAppeal(db, {
        appealId: request.params.appealId,
        answer: request.body.answer,
        actor: adminOf(request).actor,
        now: new Date(now()),
      });
      return { success: true as const, data: appeal };
    },
  );
};
