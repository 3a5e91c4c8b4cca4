import { expect } from 'vitest';
import { adminSessionResponseSchema } from '@manaboard/contract/admin';
import { ADMIN_SESSION_COOKIE, newSessionId } from '../modules/admin/admin-cookies';
import { insertSession } from '../modules/admin/admin-sessions.repository';
import { adminRequest, type AdminBrowser } from './admin-flow';
import type { TestApp } from './test-app';

const MINUTE = 60_000;

/**
 * A console session on Bluesky, stored as the sign-in stores it (the sign-in itself goes through a PDS: tested in
 * e2e/bluesky-linking.e2e.ts), and the session's CSRF token.
 */
export async function bskyAdmin(t: TestApp, handle: string): Promise<AdminBrowser> {
  const { id, idHash } = newSessionId();
  const now = new Date();
  await insertSession(t.database.db, {
    idHash,
    networkUserId: 'did:plc:opsopsopsopsopsopsopsops',
    handle,
    now,
    expiresAt: new Date(now.getTime() + 60 * MINUTE),
  });
  const browser: AdminBrowser = {
    id: '',
    csrf: '',
    headers: {},
    cookies: new Map([[ADMIN_SESSION_COOKIE, { value: id, path: '/' }]]),
  };
  const session = await adminRequest(t, browser, 'GET', '/api/admin/session');
  expect(session.statusCode, session.body).toBe(200);
  browser.csrf = adminSessionResponseSchema.parse(session.json()).csrfToken;
  return browser;
}
