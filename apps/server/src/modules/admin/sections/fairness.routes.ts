import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminEmptyBodySchema,
  memberParamsSchema,
  adminOkResponseSchema,
  fairnessFlagsQuerySchema,
  fairnessFlagsResponseSchema,
  fairnessReviewRequestSchema,
  fairnessRunResponseSchema,
  memberFairnessResponseSchema,
} from '@manaboard/contract/admin';
import { recomputeFairnessNow } from '../../fairness/fairness-actions.service';
import { listFairnessFlags, memberFairnessFlags, reviewFairnessFlag } from '../../fairness/fairness.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * Fairness signals: the detector's flags (advice, never a penalty), one member's flags, the operator's review of a
 * flag (audited), and a run of the detector now (the worker also runs it on its own schedule).
 */
export const adminFairnessRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, { db, now }) => {
  app.get(
    '/fairness/flags',
    { schema: { querystring: fairnessFlagsQuerySchema, response: { 200: fairnessFlagsResponseSchema } } },
    async (request) => ({ success: true as const, data: await listFairnessFlags(db, request.query) }),
  );

  app.get(
    '/fairness/members/:memberId',
    { schema: { params: memberParamsSchema, response: { 200: memberFairnessResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await memberFairnessFlags(db, request.params.memberId),
    }),
  );

  app.post(
    '/fairness/review',
    { schema: { body: fairnessReviewRequestSchema, response: { 200: adminOkResponseSchema } } },
    async (request) => {
      await reviewFairnessFlag(db, request.body, { actor: adminOf(request).actor, now: new Date(now()) });
      return { success: true as const };
    },
  );

  app.post(
    '/fairness/recompute',
    { schema: { body: adminEmptyBodySchema, response: { 200: fairnessRunResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await recomputeFairnessNow(db, { actor: adminOf(request).actor, now: new Date(now()) }),
    }),
  );
};
