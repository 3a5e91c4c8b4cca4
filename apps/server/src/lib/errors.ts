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

/** A write the current state does not allow right now (another one of the same kind is under way). */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}

/**
 * Work that ran into a concurrent change and was dropped whole (nothing half-done is kept): 503 with Retry-After,
 * the same request may succeed in a moment. Logged as a warning: a race, not a fault.
 */
export class TryAgainError extends AppError {
  override name = 'TryAgainError';
  constructor(message: string, retryAfterSeconds: number) {
    super(503, 'CONFLICT', message, { 'Retry-After': String(retryAfterSeconds) });
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
