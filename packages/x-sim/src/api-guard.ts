import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthStore, UserGrant } from './auth-store';
import type { Faults } from './faults';
import type { LimitedEndpoint, RateLimiter } from './rate-limits';
import { forbidden, serverError, tooManyRequests, unauthorized } from './x-errors';

/** Who is calling: the app (its bearer token) or a user (an OAuth 2.0 user access token). */
export type Caller = { kind: 'app' } | { kind: 'user'; grant: UserGrant };

/** What the guard needs: the token store, the app's bearer, the rate limiter and the fault plan. */
export type GuardDeps = { auth: AuthStore; appBearerToken: string; limiter: RateLimiter; faults: Faults };

/** A call let through: its caller, and whether a partial-errors fault applies to it. */
export type Admitted = { caller: Caller; partial: boolean };

const APP_ONLY_FORBIDDEN =
  'Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].';

/**
 * What every API call goes through first, in X's order: authentication (401), user context and scopes (403),
 * injected faults, then the endpoint's rate-limit window (429, with the x-rate-limit-* headers either way).
 * Returns undefined when the answer has been sent.
 */
export async function guard(
  deps: GuardDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: LimitedEndpoint,
  options: { scopes: string[]; userOnly?: boolean },
): Promise<Admitted | undefined> {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer /i.test(header) ? header.slice(7).trim() : '';
  let caller: Caller | undefined;
  if (bearer && bearer === deps.appBearerToken) caller = { kind: 'app' };
  else if (bearer) {
    const grant = deps.auth.userForAccessToken(bearer);
    if (grant) caller = { kind: 'user', grant };
  }
  if (!caller) {
    await unauthorized(reply);
    return undefined;
  }
  if (options.userOnly && caller.kind !== 'user') {
    await forbidden(reply, APP_ONLY_FORBIDDEN);
    return undefined;
  }
  if (caller.kind === 'user') {
    const missing = options.scopes.filter((s) => !caller.grant.scopes.includes(s));
    if (missing.length > 0) {
      await forbidden(reply, `Missing scopes: ${missing.join(', ')}`);
      return undefined;
    }
  }

  const fault = deps.faults.next(endpoint);
  if (fault.kind === 'drop') {
    // Lose the connection without an answer, as a reset between X's edge and the client would.
    await reply.hijack();
    reply.raw.destroy();
    return undefined;
  }
  if (fault.kind === 'cut') {
    // Headers and half a body, then the connection is gone: the client must not take the half for an answer.
    await reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '4096' });
    reply.raw.write('{"data":[{"id":"1","text":"cut sh');
    setTimeout(() => reply.raw.destroy(), 20);
    return undefined;
  }
  if (fault.kind === 'server-error') {
    await serverError(reply, fault.status);
    return undefined;
  }
  if (fault.kind === 'hold') await deps.faults.hold();
  if (fault.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms));

  const limitKey = caller.kind === 'user' ? `user:${caller.grant.userId}` : 'app';
  const { allowed, headers } = deps.limiter.take(endpoint, limitKey, fault.kind === 'rate-limit');
  void reply.headers(headers);
  if (!allowed) {
    await tooManyRequests(reply);
    return undefined;
  }
  return { caller, partial: fault.kind === 'partial' };
}
