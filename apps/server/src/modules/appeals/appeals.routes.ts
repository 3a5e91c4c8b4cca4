import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  memberStandingResponseSchema,
  submitAppealRequestSchema,
  submitAppealResponseSchema,
} from '@manaboard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RateLimits } from '../../http/rate-limits';
import { noStore, okReply } from '../../http/referral-replies';
import { memberOf } from '../linking/member';
import { memberStanding, submitAppeal } from './appeals.service';

export type AppealsRoutesOptions = { db: Kysely<Database>; now: () => number; limits: RateLimits };

/**
 * The member's side of appeals (issue 13), beside `/me/account`: `GET /me/standing` (disqualified or not, the
 * operator's reason, the appeal and its answer) and `POST /me/appeal` (one appeal; CSRF like every `/me/` write,
 * rate-limited as a write). Identity is the browser id, as for every member route; answers are never cached.
 */
export const appealsRoutes: FastifyPluginAsyncZod<AppealsRoutesOptions> = async (
  app,
  { db, now, limits },
) => {
  noStore(app);
  app.get(
    '/me/standing',
    { onRequest: limits('read'), schema: { response: { 200: memberStandingResponseSchema } } },
    async (request) => okReply(await memberStanding(db, await memberOf(db, request))),
  );
  app.post(
    '/me/appeal',
    {
      onRequest: limits('write'),
      schema: { body: submitAppealRequestSchema, response: { 200: submitAppealResponseSchema } },
    },
    async (request) =>
      okReply(
        await submitAppeal(db, {
          account: await memberOf(db, request),
          text: request.body.text,
          now: new Date(now()),
        }),
      ),
  );
};
