import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Headers that carry secrets (the browser id is a bearer secret, DESIGN §3): never written to a log. */
export const redactedHeaders = [
  'x-user-id',
  'x-csrf-token',
  'authorization',
  'cookie',
  'set-cookie',
] as const;

/**
 * X's return to our callback carries the authorization code and state in the query: one-time secrets, but
 * secrets all the same, so request logs show them censored.
 */
export function redactOAuthQuery(url: string): string {
  return url.replace(/([?&](?:code|state)=)[^&#]*/g, '$1[redacted]');
}

/**
 * pino options for Fastify: request logs carry method, url, a few headers and the client address, with every
 * secret header censored wherever it appears.
 */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: redactedHeaders.flatMap((h) => [
        `req.headers["${h}"]`,
        `headers["${h}"]`,
        `res.headers["${h}"]`,
      ]),
      censor: '[redacted]',
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: redactOAuthQuery(request.url),
          headers: request.headers,
          remoteAddress: request.ip,
        };
      },
    },
  };
}
