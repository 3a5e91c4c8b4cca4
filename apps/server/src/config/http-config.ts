import { z } from 'zod';
import { ConfigError } from './config-error';

/**
 * How long a client may take to send a request (docs/configuration.md, "Slow clients"). Node's own defaults are
 * 60 s for the headers and Fastify turns the whole-request limit off, so a client sending a byte now and then held a
 * connection for minutes; our requests are small (a 16 KiB body at most), so seconds are plenty.
 */
export const httpEnvShape = {
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
};

export type HttpConfig = {
  /** A request whose headers are not all in after this long is answered 408 and its connection closed. */
  headersTimeoutMs: number;
  /** The same for the whole request, body included. */
  requestTimeoutMs: number;
};

export function httpConfig(e: {
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
}): HttpConfig {
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  return { headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS };
}
