import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { World } from '@manaboard/x-sim';
import { authStartResponseSchema, csrfTokenResponseSchema } from '@manaboard/contract';
import { startSimulatedX } from './simulated-x';
import { buildTestApp, type TestApp } from './test-app';
import type { TestDatabaseKind } from './test-database';

/** The simulated X registers this origin's callback (SIM_CALLBACK), so linking tests serve from it. */
export const TEST_ORIGIN = 'http://127.0.0.1:1';
export const TEST_NOW = Date.parse('2026-11-22T12:00:00Z');
export { DAY_MS } from '../lib/time';

export type LinkingTest = TestApp & {
  world: World;
  sim: Awaited<ReturnType<typeof startSimulatedX>>;
  /** The key the app seals X tokens with (tests open raw rows with it). */
  tokenKey: string;
};

/** The real app on a fresh database, talking to its own simulated X over HTTP, on the simulated clock. */
export async function startLinkingTest(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: Pick<NonNullable<Parameters<typeof buildTestApp>[2]>, 'onRoute'> = {},
): Promise<LinkingTest> {
  const world = new World(TEST_NOW);
  const sim = await startSimulatedX(world);
  const tokenKey = randomBytes(32).toString('base64url');
  const t = await buildTestApp(
    kind,
    { PUBLIC_ORIGIN: TEST_ORIGIN, TOKEN_ENCRYPTION_KEY: tokenKey, ...env },
    { sim: { config: sim.config, world }, ...options },
  );
  return {
    ...t,
    world,
    sim,
    tokenKey,
    close: async () => {
      await t.close();
      await sim.close();
    },
  };
}

/** A stored cookie: its value and the path it is sent to (all the linking cookie uses). */
type Cookie = { value: string; path: string };

/** A browser: its id, a CSRF token fetched for it, and its cookie jar (the server's Set-Cookie kept as sent). */
export type Browser = {
  id: string;
  csrf: string;
  headers: Record<string, string>;
  cookies: Map<string, Cookie>;
};

/** A new browser: a fresh id, the CSRF token fetched for it, no cookies yet. */
export async function newBrowser(t: TestApp): Promise<Browser> {
  const id = randomUUID();
  const response = await t.app.inject({ method: 'GET', url: '/csrf-token', headers: { 'x-user-id': id } });
  const csrf = csrfTokenResponseSchema.parse(response.json()).data.csrfToken;
  return { id, csrf, headers: { 'x-user-id': id, 'x-csrf-token': csrf }, cookies: new Map() };
}

/** The `Cookie` header a browser sends to `path`: every cookie whose Path is a prefix of it. */
export function cookieHeader(browser: Browser, path: string): Record<string, string> {
  const pairs = [...browser.cookies]
    .filter(([, { path: scope }]) => scope === '/' || path === scope || path.startsWith(`${scope}/`))
    .map(([name, cookie]) => `${name}=${cookie.value}`);
  return pairs.length > 0 ? { cookie: pairs.join('; ') } : {};
}

/** Keeps (or, with Max-Age=0, drops) the cookies a response sets, as a browser does. */
export function keepCookies(browser: Browser, setCookie: string | string[] | undefined): void {
  for (const line of typeof setCookie === 'string' ? [setCookie] : (setCookie ?? [])) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const attribute = (key: string) =>
      attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    if (attribute('max-age') === '0') browser.cookies.delete(name);
    else browser.cookies.set(name, { value: pair.slice(eq + 1), path: attribute('path') ?? '/' });
  }
}

/** `POST /auth/twitter/start` → the authorize URL at the simulated X; the browser keeps the nonce cookie. */
export async function startLink(
  t: TestApp,
  browser: Browser,
  body: { redirectAfter?: string; referrerSlug?: string } = {},
): Promise<string> {
  const url = '/auth/twitter/start';
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...browser.headers, ...cookieHeader(browser, url) },
    payload: { redirectAfter: `${TEST_ORIGIN}/auth/callback`, ...body },
  });
  expect(response.statusCode, response.body).toBe(200);
  keepCookies(browser, response.headers['set-cookie']);
  return authStartResponseSchema.parse(response.json()).data.authorizeUrl;
}

export type SignIn = { decision?: 'allow' | 'deny'; ageDays?: number; followers?: number };

/** What a person does on the simulated sign-in page; returns where X sends the browser (our callback). */
export async function signInAtX(authorizeUrl: string, handle: string, options: SignIn = {}): Promise<URL> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const form = new URLSearchParams(new URL(authorizeUrl).searchParams);
  form.set('handle', handle);
  form.set('decision', options.decision ?? 'allow');
  if (options.ageDays !== undefined) form.set('account_age_days', String(options.ageDays));
  if (options.followers !== undefined) form.set('followers', String(options.followers));
  const answer = await fetch(authorizeUrl.split('?')[0] ?? '', {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

/**
 * Follows X's redirect to our callback in `browser` (its cookies go along, as on a real navigation, and it keeps
 * what the answer sets); returns where the server sends the browser next.
 */
export async function followCallback(t: TestApp, callback: URL, browser: Browser): Promise<URL> {
  expect(callback.origin).toBe(TEST_ORIGIN);
  const response = await t.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: cookieHeader(browser, callback.pathname),
  });
  expect(response.statusCode, response.body).toBe(302);
  keepCookies(browser, response.headers['set-cookie']);
  return new URL(String(response.headers.location));
}

/** The whole linking flow for a browser; returns the final redirect. */
export async function linkAs(
  t: TestApp,
  browser: Browser,
  handle: string,
  options: SignIn & { referrerSlug?: string } = {},
): Promise<URL> {
  const { referrerSlug, ...signIn } = options;
  const authorizeUrl = await startLink(t, browser, referrerSlug ? { referrerSlug } : {});
  return followCallback(t, await signInAtX(authorizeUrl, handle, signIn), browser);
}

/** A new browser linked to `handle`. */
export async function linkedBrowser(t: TestApp, handle: string, options: SignIn = {}): Promise<Browser> {
  const browser = await newBrowser(t);
  const landed = await linkAs(t, browser, handle, options);
  expect(landed.searchParams.get('error')).toBeNull();
  return browser;
}
