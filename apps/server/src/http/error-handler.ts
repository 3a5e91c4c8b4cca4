import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@manaboard/contract';
import { DiskSpaceError } from '../db/pglite-disk-guard';
import { AppError, internalErrorMessage, MemberServerDownError, TryAgainError } from '../lib/errors';
import { routeFamilyOf } from './route-families';

type Failure = { status: number; code: ErrorCode; message: string; headers?: Record<string, string> };

/** Fastify's own client-error codes, answered with a message of ours (never Fastify's internals). */
const fastifyClientErrors: Record<string, Failure> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Request body must be JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Request body length does not match Content-Length',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request body is too large',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Request body is empty; send a JSON object',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Request body is not valid JSON',
  },
};

function describeValidation(error: FastifyError): string {
  const where = error.validationContext ?? 'request';
  if (hasZodFastifySchemaValidationErrors(error)) {
    const problems = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const message = issue.message ?? 'is invalid';
      return field && !message.startsWith(field) ? `${field}: ${message}` : message;
    });
    return `Invalid ${where}: ${problems.join('; ')}`;
  }
  return `Invalid ${where}`;
}

/**
 * A write refused because the embedded database's disk is nearly full (db/pglite-disk-guard.ts): nothing was
 * saved, and the same request succeeds once the operator frees space. The log names the directory; the client is
 * told only that it may try again.
 */
export const diskFullFailure: Failure = {
  status: 503,
  code: 'INTERNAL_ERROR',
  message: 'The server is out of disk space, so nothing was saved. Please try again later.',
  headers: { 'Retry-After': '60' },
};

/** Turns anything thrown into a failure the client may see; unknown errors become a generic 500. */
export function toFailure(error: FastifyError | Error): Failure {
  if (error instanceof DiskSpaceError) return diskFullFailure;
  if (error instanceof AppError) {
    return { status: error.status, code: error.code, message: error.message, headers: error.headers };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return { status: 400, code: 'BAD_REQUEST', message: describeValidation(fastifyError) };
  }
  const known = fastifyError.code ? fastifyClientErrors[fastifyError.code] : undefined;
  if (known) return known;
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return fastifyClientErrors.FST_ERR_CTP_INVALID_JSON_BODY as Failure;
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', message: 'Bad request' };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: internalErrorMessage };
}

/** Writes a failure in the dialect of the route family the request belongs to. */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, failure: Failure): FastifyReply {
  if (failure.headers) void reply.headers(failure.headers);
  void reply.code(failure.status).type('application/json; charset=utf-8');
  if (routeFamilyOf(request.url) === 'referral') {
    return reply.send({ ok: false, data: null, error: { message: failure.message, code: failure.code } });
  }
  return reply.send({ success: false, error: failure.message });
}

/** The one error handler of the server. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = toFailure(error);
    if (error instanceof MemberServerDownError) {
      request.log.warn({ code: failure.code, status: failure.status, reason: error.reason }, error.message);
    } else if (error instanceof TryAgainError) {
      request.log.warn({ code: failure.code, status: failure.status }, error.message);
    } else if (failure.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: failure.code, status: failure.status }, 'request rejected');
    }
    return sendFailure(request, reply, failure);
  });
}
