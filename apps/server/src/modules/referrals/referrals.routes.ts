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
import { requireBrowserIdHash } from '../identity/browser-id';
import { accountForBrowser } from '../linking/linking.service';
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
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('Cache-Control', 'no-store');
  });

  app.post(
    '/referrals/link',
    {
      onRequest: limits('read'),
      schema: { body: emptyBodySchema, response: { 200: referralLinkResponseSchema } },
    },
    async (request) => {
      const member = await accountForBrowser(db, requireBrowserIdHash(request));
      return { ok: true as const, data: referralLink(options.publicOrigin, member), error: null };
    },
  );

  app.get(
    '/referrals/status',
    { onRequest: limits('read'), schema: { response: { 200: referralStatusResponseSchema } } },
    async (request) => {
      const member = await accountForBrowser(db, requireBrowserIdHash(request));
      return { ok: true as const, data: await referralStatus(db, member), error: null };
    },
  );

  app.get(
    '/referrals/stats',
    { onRequest: limits('read'), schema: { response: { 200: referralStatsResponseSchema } } },
    async (request) => {
      const member = await accountForBrowser(db, requireBrowserIdHash(request));
      return { ok: true as const, data: await referralStats(db, member), error: null };
    },
  );

  app.post(
    '/referrals/apply',
    {
      onRequest: limits('apply'),
      schema: { body: applyReferralRequestSchema, response: { 200: applyReferralResponseSchema } },
    },
    async (request) => {
      const member = await accountForBrowser(db, requireBrowserIdHash(request));
      const data = await applyReferral(
        referrals,
        member,
        request.body.referrerHandle,
        member ? `account:${member.id}` : 'anonymous',
      );
      return { ok: true as const, data, error: null };
    },
  );
};
