import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/schema';
import { requireBrowserIdHash } from '../identity/browser-id';
import { findAccountByBrowser, type AccountRow } from './accounts.repository';

/**
 * The linked account of the browser making the request (undefined when it is not linked); a request without a
 * valid `X-User-Id` is a 401 before any lookup.
 */
export function memberOf(db: Db, request: FastifyRequest): Promise<AccountRow | undefined> {
  return findAccountByBrowser(db, requireBrowserIdHash(request));
}
