import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Faults } from './faults';
import { xSimPlugin } from './plugin';
import type { World } from './world';

export const TEST_CLIENT = {
  clientId: 'test-client',
  clientSecret: 'test-secret',
  redirectUris: ['http://app.test/cb'],
};
export const APP_BEARER = 'test-app-bearer';

/** A simulated X on a Fastify instance for inject-based tests (used by this package's tests only). */
export async function simApp(
  world: World,
  options: { rateLimitScale?: number; prefix?: string; windowMs?: number; oauthClock?: () => number } = {},
) {
  const faults = new Faults();
  const app: FastifyInstance = Fastify();
  await app.register(xSimPlugin, {
    world,
    clients: [TEST_CLIENT],
    appBearerToken: APP_BEARER,
    faults,
    rateLimitScale: options.rateLimitScale ?? 1,
    ...(options.prefix ? { prefix: options.prefix } : {}),
    ...(options.windowMs ? { windowMs: options.windowMs } : {}),
    ...(options.oauthClock ? { oauthClock: options.oauthClock } : {}),
  });
  await app.ready();
  return { app, faults };
}

/** The content type of HTML forms and OAuth token requests. */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Authorization request parameters for the test client, with a fresh PKCE pair. */
export function authorizeParams(overrides: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: TEST_CLIENT.clientId,
    redirect_uri: TEST_CLIENT.redirectUris[0] ?? '',
    scope: 'tweet.read users.read offline.access',
    state: 'xyz',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...overrides,
  });
  return { verifier, params };
}

/** Signs a handle in on the authorize form and returns the code it got, with its verifier. */
export async function codeFor(app: FastifyInstance, handle: string) {
  const { params, verifier } = authorizeParams();
  params.set('decision', 'allow');
  params.set('handle', handle);
  const response = await app.inject({
    method: 'POST',
    url: '/i/oauth2/authorize',
    payload: params.toString(),
    headers: FORM,
  });
  return { code: new URL(String(response.headers.location)).searchParams.get('code') ?? '', verifier };
}

/** Trades a code for tokens at the token endpoint. */
export function exchangeCode(
  app: FastifyInstance,
  code: string,
  verifier: string,
  redirectUri = TEST_CLIENT.redirectUris[0] ?? '',
) {
  return app.inject({
    method: 'POST',
    url: '/2/oauth2/token',
    headers: { ...FORM, authorization: basic },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
}

/** HTTP Basic credentials of the test client. */
export const basic = `Basic ${Buffer.from(`${TEST_CLIENT.clientId}:${TEST_CLIENT.clientSecret}`).toString('base64')}`;

/** Runs the whole authorization-code flow for a handle (under `prefix`, if mounted there); returns tokens. */
export async function signIn(
  app: FastifyInstance,
  handle: string,
  scope = 'tweet.read users.read like.read offline.access',
  prefix = '',
) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const form = new URLSearchParams({
    response_type: 'code',
    client_id: TEST_CLIENT.clientId,
    redirect_uri: TEST_CLIENT.redirectUris[0] ?? '',
    scope,
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    handle,
    decision: 'allow',
  });
  const authorize = await app.inject({
    method: 'POST',
    url: `${prefix}/i/oauth2/authorize`,
    payload: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const location = new URL(String(authorize.headers.location));
  const code = location.searchParams.get('code') ?? '';
  const token = await app.inject({
    method: 'POST',
    url: `${prefix}/2/oauth2/token`,
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: TEST_CLIENT.redirectUris[0] ?? '',
      code_verifier: verifier,
    }).toString(),
  });
  return {
    verifier,
    code,
    tokens: token.json() as { access_token: string; refresh_token?: string; scope: string },
  };
}

/** Ids of the posts of a search or lookup answer. */
export function idsOf(body: { data?: { id: string }[] }): string[] {
  return (body.data ?? []).map((t) => t.id);
}
