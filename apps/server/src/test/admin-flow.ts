import { expect } from 'vitest';
import { adminSessionResponseSchema, adminSignInStartResponseSchema } from '@manaboard/contract/admin';
import {
  cookieHeader,
  followCallback,
  keepCookies,
  signInAtX,
  type Browser,
  type SignIn,
} from './linking-flow';
import type { TestApp } from './test-app';

/** A console browser: cookies only (the console never sends a member browser id), and its CSRF token once known. */
export type AdminBrowser = Browser;

export function newAdminBrowser(): AdminBrowser {
  return { id: '', csrf: '', headers: {}, cookies: new Map() };
}

/** `POST /auth/admin/start` → the authorize URL; the browser keeps the nonce cookie. */
export async function startAdminSignIn(t: TestApp, browser: AdminBrowser): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/auth/admin/start', payload: {} });
  expect(response.statusCode, response.body).toBe(200);
  keepCookies(browser, response.headers['set-cookie']);
  return adminSignInStartResponseSchema.parse(response.json()).authorizeUrl;
}

/** The whole console sign-in at the simulated X as `handle`; returns where the browser lands. */
export async function adminSignInAs(
  t: TestApp,
  browser: AdminBrowser,
  handle: string,
  signIn: SignIn = {},
): Promise<URL> {
  const authorizeUrl = await startAdminSignIn(t, browser);
  return followCallback(t, await signInAtX(authorizeUrl, handle, signIn), browser);
}

/** A console browser signed in as `handle` (an admin), with its CSRF token. */
export async function signedInAdmin(t: TestApp, handle: string): Promise<AdminBrowser> {
  const browser = newAdminBrowser();
  const landed = await adminSignInAs(t, browser, handle);
  expect(landed.searchParams.get('error')).toBeNull();
  expect(landed.pathname).toBe('/admin');
  const session = await adminRequest(t, browser, 'GET', '/api/admin/session');
  expect(session.statusCode, session.body).toBe(200);
  browser.csrf = adminSessionResponseSchema.parse(session.json()).csrfToken;
  return browser;
}

/** A request from a console browser: its cookies, and on writes its CSRF token and a JSON body. */
export function adminRequest(
  t: TestApp,
  browser: AdminBrowser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH',
  url: string,
  payload?: unknown,
) {
  const write = method !== 'GET' && method !== 'HEAD';
  return t.app.inject({
    method,
    url,
    headers: {
      ...cookieHeader(browser, url.split('?')[0] ?? url),
      ...(write && browser.csrf ? { 'x-csrf-token': browser.csrf } : {}),
    },
    ...(write ? { payload: (payload ?? {}) as Record<string, unknown> } : {}),
  });
}
