import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminSignInStartRequestSchema, adminSignInStartResponseSchema } from '@manaboard/contract/admin';
import { BadRequestError } from '../../lib/errors';
import type { RateLimits } from '../../http/rate-limits';
import { noStore } from '../../http/referral-replies';
import type { CallbackHandler } from '../linking/linking.routes';
import { OAUTH_ATTEMPT_LIFETIME_MS } from '../linking/linking.service';
import {
  adminNonceCookie,
  ADMIN_NONCE_COOKIE,
  clearedAdminNonceCookie,
  readCookie,
  sessionCookie,
} from './admin-cookies';
import { completeAdminSignIn, startAdminSignIn, type AdminAuthDeps } from './admin-signin.service';

/** The start of a console sign-in: outside /api/admin (nobody is signed in yet), on the sign-in budget. */
export const ADMIN_SIGN_IN_PATH = '/auth/admin/start';

/**
 * `POST /auth/admin/start` → the network's authorize URL; the browser gets the attempt's nonce cookie, sent only
 * to the network's callback path (where the attempt completes).
 */
export const adminAuthRoutes: FastifyPluginAsyncZod<{ auth: AdminAuthDeps; limits: RateLimits }> = async (
  app,
  { auth, limits },
) => {
  noStore(app);
  app.post(
    ADMIN_SIGN_IN_PATH,
    {
      onRequest: limits('auth'),
      schema: { body: adminSignInStartRequestSchema, response: { 200: adminSignInStartResponseSchema } },
    },
    async (request, reply) => {
      const { handle } = request.body;
      if (auth.network.needsHandle && !handle) throw new BadRequestError('Type your handle to sign in.');
      const { authorizeUrl, nonce } = await startAdminSignIn(
        auth,
        auth.network.needsHandle && handle ? { handle } : {},
      );
      const cookie = adminNonceCookie(
        nonce,
        auth.publicOrigin,
        OAUTH_ATTEMPT_LIFETIME_MS,
        auth.network.callbackPath,
      );
      void reply.header('Set-Cookie', cookie);
      return { success: true as const, authorizeUrl };
    },
  );
};

/** The callback's handler for console attempts: the session cookie on success, the nonce cookie cleared always. */
export function adminCallbackHandler(auth: AdminAuthDeps): CallbackHandler {
  return async (params, cookieHeader) => {
    const result = await completeAdminSignIn(auth, params, readCookie(cookieHeader, ADMIN_NONCE_COOKIE));
    const cookies = [clearedAdminNonceCookie(auth.publicOrigin, auth.network.callbackPath)];
    if (result.session) {
      cookies.push(sessionCookie(result.session.id, auth.publicOrigin, result.session.maxAgeMs));
    }
    return { redirect: result.redirect, cookies };
  };
}
