import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminMemberResponseSchema,
  adminMembersResponseSchema,
  adminQualificationResponseSchema,
  memberParamsSchema,
  memberSearchQuerySchema,
  setQualificationRequestSchema,
} from '@manaboard/contract/admin';
import { setAuthorDisqualified } from '../../mana/disqualification.service';
import { memberDetail, searchMembers } from '../../members/members.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * Section 3, members: search authors and linked members, a member's page, and disqualify / requalify with the
 * reason the member reads on their card (the service `npm run mana -- disqualify` uses). The leaderboard leaves a
 * disqualified author out at once; `afterManaChange` drops cached pages and reruns totals where a worker runs here.
 */
export const adminMembersRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, options) => {
  const { db, now, postUrl, afterManaChange } = options;

  app.get(
    '/members',
    { schema: { querystring: memberSearchQuerySchema, response: { 200: adminMembersResponseSchema } } },
    async (request) => ({ success: true as const, data: await searchMembers({ db }, request.query) }),
  );

  app.get(
    '/members/:memberId',
    { schema: { params: memberParamsSchema, response: { 200: adminMemberResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await memberDetail({ db, now, postUrl }, request.params.memberId),
    }),
  );

  app.post(
    '/members/qualification',
    { schema: { body: setQualificationRequestSchema, response: { 200: adminQualificationResponseSchema } } },
    async (request) => {
      const done = await setAuthorDisqualified(db, {
        ...request.body,
        actor: adminOf(request).actor,
        now: new Date(now()),
      });
      await afterManaChange();
      return { success: true as const, data: done };
    },
  );
};
