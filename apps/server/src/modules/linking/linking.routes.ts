import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountResponseSchema,
  authStartRequestSchema,
  authStartResponseSchema,
  emptyBodySchema,
  unlinkResponseSchema,
} from '@manaboard/contract';
import type { RateLimits } from '../../http/rate-limits';
import { requireBrowserIdHash } from '../identity/browser-id';
import type { ReferralDeps } from '../referrals/referrals.service';
import { completeLinking } from './linking-callback.service';
import {
  accountForBrowser,
  accountInfo,
  startLinking,
  unlinkBrowser,
  type LinkingDeps,
} from './linking.service';

export type LinkingRoutesOptions = { linking: LinkingDeps; referrals: ReferralDeps; limits: RateLimits };

/**
 * Linking an X account (SPEC §7, DESIGN §3): `POST /auth/twitter/start`, X's return to
 * `GET /auth/twitter/callback`, `GET /me/account` and `POST /me/unlink`. Answers are per browser: never cached.
 */
export const linkingRoutes: FastifyPluginAsyncZod<LinkingRoutesOptions> = async (app, options) => {
  const { linking, limits } = options;
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('Cache-Control', 'no-store');
  });

  app.post(
    '/auth/twitter/start',
    {
      onRequest: limits('auth'),
      schema: { body: authStartRequestSchema, response: { 200: authStartResponseSchema } },
    },
    async (request) => {
      const data = await startLinking(linking, {
        browserHash: requireBrowserIdHash(request),
        redirectAfter: request.body.redirectAfter,
        referrerSlug: request.body.referrerSlug,
      });
      return { ok: true as const, data, error: null };
    },
  );

  // A top-level navigation from X: no X-User-Id here; the stored attempt names the browser.
  app.get('/auth/twitter/callback', { onRequest: limits('auth') }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const { redirect } = await completeLinking(
      { ...linking, referrals: options.referrals },
      new URLSearchParams(query),
    );
    // The callback URL carries the code: it must not leak to the next page as a Referer.
    return reply.header('Referrer-Policy', 'no-referrer').redirect(redirect, 302);
  });

  app.get(
    '/me/account',
    { onRequest: limits('read'), schema: { response: { 200: accountResponseSchema } } },
    async (request) => {
      const account = await accountForBrowser(linking.db, requireBrowserIdHash(request));
      return { ok: true as const, data: accountInfo(account), error: null };
    },
  );

  app.post(
    '/me/unlink',
    {
      onRequest: limits('read'),
      schema: { body: emptyBodySchema, response: { 200: unlinkResponseSchema } },
    },
    async (request) => {
      const data = await unlinkBrowser(linking, requireBrowserIdHash(request));
      return { ok: true as const, data, error: null };
    },
  );
};
