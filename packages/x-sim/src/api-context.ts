import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GuardDeps } from './api-guard';
import { fieldList, onlyKnown, type ParamResult } from './api-params';
import { OTHER_FIELD_PARAMS, TWEET_FIELDS, USER_FIELDS } from './fields';
import type { FieldChoice } from './serialize';
import type { World } from './world';
import { invalidRequest } from './x-errors';

/** What the API routes share. */
export type ApiDeps = GuardDeps & {
  world: World;
  /** Base URL of the simulation as the caller sees it (avatar URLs point there). */
  baseUrl: (request: FastifyRequest) => string;
};

/** Unwraps a parameter check: a failure answers 400 in X's shape. */
export function check<T>(reply: FastifyReply, result: ParamResult<T>): result is { ok: true; value: T } {
  if (!result.ok) void invalidRequest(reply, result.message, result.parameters);
  return result.ok;
}

/** The query of a request, refusing parameters the endpoint does not take (X answers those with a 400). */
export function queryOf(
  request: FastifyRequest,
  reply: FastifyReply,
  allowed: string[],
): Record<string, unknown> | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const all = [...allowed, 'tweet.fields', 'user.fields', 'expansions', ...OTHER_FIELD_PARAMS];
  return check(reply, onlyKnown(query, all)) ? query : undefined;
}

/** tweet.fields, user.fields and expansions, checked against X's names. */
export function fieldsOf(
  reply: FastifyReply,
  query: Record<string, unknown>,
  expansions: ReadonlySet<string>,
): FieldChoice | undefined {
  const tweet = fieldList(query, 'tweet.fields', TWEET_FIELDS);
  if (!check(reply, tweet)) return undefined;
  const user = fieldList(query, 'user.fields', USER_FIELDS);
  if (!check(reply, user)) return undefined;
  const ex = fieldList(query, 'expansions', expansions);
  if (!check(reply, ex)) return undefined;
  return { tweet: tweet.value, user: user.value, expansions: ex.value };
}
