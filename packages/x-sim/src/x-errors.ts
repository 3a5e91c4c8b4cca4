import type { FastifyReply } from 'fastify';

// X's error bodies (https://docs.x.com/x-api/fundamentals/response-codes-and-errors). X's live answers still
// name their problem types under api.twitter.com, so the simulation does too.

/** Problem type of a deleted, missing or suspended resource. */
export const PROBLEM_NOT_FOUND = 'https://api.twitter.com/2/problems/resource-not-found';
/** Problem type of a resource the caller may not see (a protected account's). */
export const PROBLEM_NOT_AUTHORIZED = 'https://api.twitter.com/2/problems/not-authorized-for-resource';
/** Problem type of a request with bad parameters. */
export const PROBLEM_INVALID_REQUEST = 'https://api.twitter.com/2/problems/invalid-request';

/** 400 with `errors[].parameters` and `errors[].message`, as X answers bad parameters. */
export function invalidRequest(
  reply: FastifyReply,
  message: string,
  parameters: Record<string, string[]> = {},
) {
  return reply.code(400).send({
    errors: [{ parameters, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: PROBLEM_INVALID_REQUEST,
  });
}

/** A bare problem body (401, 403, 429, 5xx). */
function blank(reply: FastifyReply, status: number, title: string, detail = title) {
  return reply.code(status).send({ title, detail, type: 'about:blank', status });
}

/** 401: no or bad bearer token. */
export const unauthorized = (reply: FastifyReply) => blank(reply, 401, 'Unauthorized');

/** 403: user context or a scope is missing, or the resource is someone else's. */
export const forbidden = (reply: FastifyReply, detail: string) => blank(reply, 403, 'Forbidden', detail);

/** 429: the rate-limit window is spent. */
export const tooManyRequests = (reply: FastifyReply) => blank(reply, 429, 'Too Many Requests');

const serverTitles: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A 5xx with X's title for the status. */
export const serverError = (reply: FastifyReply, status: number) =>
  blank(reply, status, serverTitles[status] ?? 'Internal Server Error');

/** An OAuth 2.0 error of the token and revoke endpoints (RFC 6749 §5.2, as X sends them). */
export function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ error, error_description: description });
}

/** A partial error beside `data`: a resource that could not be returned. */
export function problem(
  kind: 'not-found' | 'not-authorized',
  resource: 'tweet' | 'user',
  parameter: string,
  value: string,
  detail?: string,
) {
  const notFound = kind === 'not-found';
  const noun = resource === 'tweet' ? 'Tweet' : 'User';
  return {
    value,
    detail:
      detail ??
      (notFound
        ? `Could not find ${resource} with ${parameter}: [${value}].`
        : `Sorry, you are not authorized to see the ${noun} with ${parameter}: [${value}].`),
    title: notFound ? 'Not Found Error' : 'Authorization Error',
    resource_type: resource,
    parameter,
    resource_id: value,
    type: notFound ? PROBLEM_NOT_FOUND : PROBLEM_NOT_AUTHORIZED,
  };
}
