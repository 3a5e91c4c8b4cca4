import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CatalogueError } from '../../lib/errors';

/** The per-browser id of SPEC §3: a random UUID the browser creates and sends as `X-User-Id`. */
export const browserIdSchema = z.uuid();

/**
 * The browser id is a bearer secret (DESIGN §3): only its SHA-256 hash is stored or compared, and the id itself
 * never leaves this function's caller.
 */
export function hashBrowserId(browserId: string): string {
  return createHash('sha256').update(browserId.toLowerCase()).digest('hex');
}

/** The caller's browser-id hash, or a 401 UNAUTHORIZED when `X-User-Id` is absent or not a UUID. */
export function requireBrowserIdHash(request: FastifyRequest): string {
  const header = request.headers['x-user-id'];
  const value = Array.isArray(header) ? undefined : header;
  if (!value || !browserIdSchema.safeParse(value).success) throw new CatalogueError(401, 'UNAUTHORIZED');
  return hashBrowserId(value);
}
