import { messageFor, type CatalogueCode, type ErrorCode } from '@manaboard/contract';

/**
 * A failure the server means to report to the client: HTTP status, stable code and a message safe to show.
 * Anything else thrown is an internal error and reaches the client only as a generic 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A client mistake in params, query, headers or body. */
export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, 'BAD_REQUEST', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, 'NOT_FOUND', message);
  }
}

/** A failure named by the SPEC §8 catalogue, with its catalogue message. */
export class CatalogueError extends AppError {
  constructor(status: number, code: CatalogueCode, headers: Record<string, string> = {}) {
    super(status, code, messageFor(code), headers);
  }
}

/**
 * A member's own server (their PDS) did not answer: 503, and not our fault, so it is logged as a warning with the
 * reason only, never as an error with a stack trace.
 */
export class MemberServerDownError extends AppError {
  override name = 'MemberServerDownError';
  constructor(
    message: string,
    /** Why, for the log (never sent to the client). */
    readonly reason: string,
  ) {
    super(503, 'NETWORK_ERROR', message);
  }
}

/**
 * An error and its causes in one line, for a warning about someone else's server (a member's PDS, the network's
 * authorization server): what went wrong, without a stack trace that would only point into our own code.
 */
export function reasonOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.length > 0 ? parts.join(': ') : String(error);
}

export const internalErrorMessage = 'Something went wrong. Please try again.';
