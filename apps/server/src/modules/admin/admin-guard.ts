import type { FastifyRequest } from 'fastify';
import type { AdminConfig } from '../../config/config';
import type { Db } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { CsrfTokens } from '../identity/csrf';
import { ADMIN_SESSION_COOKIE, readCookie } from './admin-cookies';
import { checkSession, type AdminPrincipal } from './admin-session.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin; set by the admin scope's guard on every route inside it. */
    admin: AdminPrincipal | null;
  }
  interface FastifyContextConfig {
    /** A route any live console session may use even when its account is no longer an admin (sign out). */
    adminSessionOnly?: boolean;
  }
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const ADMIN_MESSAGES = {
  signIn: 'Sign in to the console to continue.',
  expired: 'Your console session has ended. Sign in again.',
  notAdmin: 'This account is not an admin of this programme.',
  csrfMissing: 'Security token is required. Reload the console and try again.',
  csrfInvalid: 'Security token expired. Reload the console and try again.',
} as const;

/** The CSRF token subject of a console session: bound to the session, never valid for a member browser. */
export function adminCsrfSubject(principal: AdminPrincipal): string {
  return `admin:${principal.sessionHash}`;
}

/**
 * The admin scope's check, run on request for every route inside it: a live session (401 otherwise: none, unknown or
 * expired), an account ADMIN_ACCOUNTS names now (403), and on every write an `X-CSRF-Token` issued to this
 * session (403). A member's browser id or member session is no credential here.
 */
export function adminGuard(deps: { db: Db; admin: AdminConfig; csrf: CsrfTokens; now: () => number }) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.is404) return;
    const sessionId = readCookie(request.headers.cookie, ADMIN_SESSION_COOKIE);
    const check = await checkSession(deps.db, deps.admin, sessionId, new Date(deps.now()));
    if (check.kind === 'none') throw new AppError(401, 'UNAUTHORIZED', ADMIN_MESSAGES.signIn);
    if (check.kind === 'expired') throw new AppError(401, 'UNAUTHORIZED', ADMIN_MESSAGES.expired);
    if (check.kind === 'not_admin' && !request.routeOptions.config.adminSessionOnly) {
      throw new AppError(403, 'FORBIDDEN', ADMIN_MESSAGES.notAdmin);
    }
    if (writeMethods.has(request.method)) {
      const header = request.headers['x-csrf-token'];
      const token = typeof header === 'string' ? header : undefined;
      if (!token) throw new AppError(403, 'CSRF_TOKEN_REQUIRED', ADMIN_MESSAGES.csrfMissing);
      if (deps.csrf.check(adminCsrfSubject(check.principal), token) !== 'valid') {
        throw new AppError(403, 'CSRF_INVALID', ADMIN_MESSAGES.csrfInvalid);
      }
    }
    request.admin = check.principal;
  };
}

/** The admin of a request inside the scope (the guard has run); a route outside it is a programming error. */
export function adminOf(request: FastifyRequest): AdminPrincipal {
  if (!request.admin) throw new Error('adminOf called outside the admin scope');
  return request.admin;
}
