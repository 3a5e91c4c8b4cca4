import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  applyReferralRequestSchema,
  applyReferralResponseSchema,
  emptyBodySchema,
  referralLinkResponseSchema,
  referralStatsResponseSchema,
  referralStatusResponseSchema,
} from '@manaboard/contract';
import type { RateLimits } from '../../http/rate-limits';
import { noStore, okReply } from '../../http/referral-replies';
import { memberOf } from '../linking/member';
import {
  applyReferral,
  referralLink,
  referralStats,
  referralStatus,
  type ReferralDeps,
} from './referrals.service';

export type ReferralRoutesOptions = { referrals: ReferralDeps; publicOrigin: string; limits: RateLimits };

/** The referral calls of SPEC §7: link, status, stats and apply, for the browser's linked account. */
export const referralsRoutes: FastifyPluginAsyncZod<ReferralRoutesOptions> = async (app, options) => {
  const { referrals, limits } = options;
  const { db } = referrals;
  noStore(app);

  app.post(
    '/referrals/link',
    {
      // A write (the client asks for its link once), not a read: the write budget.
      onRequest: limits('write'),
      schema: { body: emptyBodySchema, response: { 200: referralLinkResponseSchema } },
    },
    async (request) => okReply(referralLink(options.publicOrigin, await memberOf(db, request))),
  );

  app.get(
    '/referrals/status',
    { onRequest: limits('read'), schema: { response: { 200: referralStatusResponseSchema } } },
    async (request) => okReply(await referralStatus(db, await memberOf(db, request))),
  );

  app.get(
    '/referrals/stats',
    { onRequest: limits('read'), schema: { response: { 200: referralStatsResponseSchema } } },
    async (request) => okReply(await referralStats(db, await memberOf(db, request))),
  );

  app.post(
    '/referrals/apply',
    {
      onRequest: limits('apply'),
      schema: { body: applyReferralRequestSchema, response: { 200: applyReferralResponseSchema } },
    },
    async (request) => {
      const member = await memberOf(db, request);
      const actor = member ? `account:${member.id}` : 'anonymous';
      return okReply(await applyReferral(referrals, member, request.body.referrerHandle, actor));
    },
  );
};
