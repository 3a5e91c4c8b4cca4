import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountResponseSchema,
  authStartRequestSchema,
  authStartResponseSchema,
  authStartWithHandleRequestSchema,
  emptyBodySchema,
  unlinkResponseSchema,
} from '@manaboard/contract';
import type { RateLimits } from '../../http/rate-limits';
import { noStore, okReply } from '../../http/referral-replies';
import { requireBrowserIdHash } from '../identity/browser-id';
import type { ReferralDeps } from '../referrals/referrals.service';
import { completeLinking } from './linking-callback.service';
import { clearedNonceCookie, nonceCookie, nonceCookiePath, readNonce } from './linking-nonce';
import {
  accountInfo,
  OAUTH_ATTEMPT_LIFETIME_MS,
  startLinking,
  unlinkBrowser,
  type LinkingDeps,
} from './linking.service';
import { memberOf } from './member';
import { purposeOf, type OAuthPurpose } from './oauth-attempts.repository';

/**
 * Completes an OAuth attempt made for another purpose than linking (the console's sign-in) on the one registered
 * callback: where to send the browser, and the cookies to set.
 */
export type CallbackHandler = (
  params: URLSearchParams,
  cookieHeader: string | undefined,
) => Promise<{ redirect: string; cookies: string[] }>;

export type LinkingRoutesOptions = {
  linking: LinkingDeps;
  referrals: ReferralDeps;
  limits: RateLimits;
  /** The callback's handlers for attempts of other purposes (an attempt remembers its purpose). */
  otherPurposes?: Partial<Record<Exclude<OAuthPurpose, 'link'>, CallbackHandler>>;
};

/**
 * Linking a network account (SPEC §7, DESIGN §3): `POST {startPath}`, the network's return to
 * `GET {callbackPath}` (both the adapter's: on X, SPEC's `/auth/twitter/start` and `/auth/twitter/callback`),
 * `GET /me/account` and `POST /me/unlink`. Answers are per browser: never cached.
 */
export const linkingRoutes: FastifyPluginAsyncZod<LinkingRoutesOptions> = async (app, options) => {
  const { linking, limits } = options;
  const { publicOrigin } = linking;
  const { startPath, callbackPath } = linking.network;
  const cookiePath = nonceCookiePath(startPath, callbackPath);
  noStore(app);

  // Networks whose sign-in starts from the member's handle take it in the start body; the others keep SPEC's body.
  const startBody = linking.network.needsHandle ? authStartWithHandleRequestSchema : authStartRequestSchema;
  app.post(
    startPath,
    {
      onRequest: limits('auth'),
      schema: { body: startBody, response: { 200: authStartResponseSchema } },
    },
    async (request, reply) => {
      const body = request.body as { redirectAfter: string; referrerSlug?: string; handle?: string };
      const { authorizeUrl, nonce } = await startLinking(linking, {
        browserHash: requireBrowserIdHash(request),
        redirectAfter: body.redirectAfter,
        referrerSlug: body.referrerSlug,
        ...(body.handle !== undefined ? { handle: body.handle } : {}),
      });
      void reply.header(
        'Set-Cookie',
        nonceCookie(nonce, publicOrigin, OAUTH_ATTEMPT_LIFETIME_MS, cookiePath),
      );
      return okReply({ authorizeUrl });
    },
  );

  // A top-level navigation from the network: no X-User-Id here; the stored attempt names the browser, and the nonce
  // cookie proves this is that browser. Over the limit it is sent to the return page, not shown JSON.
  const callbackLimit = limits('auth', (reply) =>
    reply
      .header('Referrer-Policy', 'no-referrer')
      .redirect(`${publicOrigin}/auth/callback?error=rate_limited`, 302),
  );
  const returnHost = linking.network.returnOrigin ? new URL(linking.network.returnOrigin).host : undefined;
  app.get(callbackPath, { onRequest: callbackLimit }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    if (returnHost && returnHost !== new URL(publicOrigin).host && request.host === returnHost) {
      // The network may only return to a loopback address (127.0.0.1): carry the answer, untouched, to the
      // public origin, where this browser's nonce cookie lives. Nothing is read or consumed here.
      return reply
        .header('Referrer-Policy', 'no-referrer')
        .redirect(`${publicOrigin}${callbackPath}${query ? `?${query}` : ''}`, 302);
    }
    const params = new URLSearchParams(query);
    const state = params.get('state');
    const purpose = state ? await purposeOf(linking.db, state) : undefined;
    const other = purpose && purpose !== 'link' ? options.otherPurposes?.[purpose] : undefined;
    if (other) {
      const done = await other(params, request.headers.cookie);
      return reply
        .header('Referrer-Policy', 'no-referrer')
        .header('Set-Cookie', done.cookies)
        .redirect(done.redirect, 302);
    }
    const { redirect } = await completeLinking(
      { ...linking, referrals: options.referrals },
      params,
      readNonce(request.headers.cookie),
    );
    // The callback URL carries the code: it must not leak to the next page as a Referer.
    return reply
      .header('Referrer-Policy', 'no-referrer')
      .header('Set-Cookie', clearedNonceCookie(publicOrigin, cookiePath))
      .redirect(redirect, 302);
  });

  app.get(
    '/me/account',
    { onRequest: limits('read'), schema: { response: { 200: accountResponseSchema } } },
    async (request) => okReply(accountInfo(await memberOf(linking.db, request))),
  );

  app.post(
    '/me/unlink',
    {
      onRequest: limits('write'),
      schema: { body: emptyBodySchema, response: { 200: unlinkResponseSchema } },
    },
    async (request) => okReply(await unlinkBrowser(linking, requireBrowserIdHash(request))),
  );
};
