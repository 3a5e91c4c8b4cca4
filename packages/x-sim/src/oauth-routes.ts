import type { FastifyInstance, FastifyReply } from 'fastify';
import { challengeMethodOf, KNOWN_SCOPES, type AuthStore, type SimClient } from './auth-store';
import { registerTokenRoutes } from './oauth-token-routes';
import { postPageCss } from './post-page';
import { html, signInCss, signInPage } from './sign-in-page';
import type { World } from './world';
import { HANDLE } from './world-users';

const DAY_MS = 86_400_000;
const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

type AuthorizeParams = Record<string, string>;
type Checked =
  | { client: SimClient; scopes: string[] }
  | { page: string }
  | { redirect: { error: string; error_description: string } };

function errorPage(reply: FastifyReply, message: string) {
  return reply
    .code(400)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><h1>Something went wrong</h1><p>${html(message)}</p></body></html>`,
    );
}

function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string>) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return reply.header('Cache-Control', 'no-store').redirect(url.href, 302);
}

/**
 * Checks an authorization request as X does. A bad client or callback URL is shown on a page, never
 * redirected to (RFC 6749 §4.1.2.1: no redirect to an unverified address); other problems go back to the
 * client as `error=` with the state. PKCE is required; the method may be `S256` in either case (X's own SDKs send
 * `s256`) or `plain`, as X takes them (Manaboard itself always sends S256, per RFC 9700).
 */
function checkAuthorize(params: AuthorizeParams, clients: SimClient[]): Checked {
  const client = clients.find((c) => c.clientId === params.client_id);
  if (!client) return { page: 'Unknown client_id: this app is not registered.' };
  if (!params.redirect_uri || !client.redirectUris.includes(params.redirect_uri))
    return { page: 'The redirect_uri does not match a callback URL registered for this app.' };
  if (!params.state) return { page: 'The state parameter is required.' };
  const refuse = (error: string, error_description: string) => ({ redirect: { error, error_description } });
  if (params.response_type !== 'code')
    return refuse('unsupported_response_type', 'response_type must be code');
  if (!params.code_challenge)
    return refuse('invalid_request', 'Missing required parameter [code_challenge].');
  if (!challengeMethodOf(params.code_challenge_method))
    return refuse('invalid_request', 'code_challenge_method must be S256 or plain');
  const scopes = (params.scope ?? '').split(/[\s+]+/).filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s)))
    return refuse('invalid_scope', 'One or more scopes are not known.');
  return { client, scopes };
}

function pickAuthorize(source: unknown): AuthorizeParams {
  const params: AuthorizeParams = {};
  const record = (source ?? {}) as Record<string, unknown>;
  for (const field of AUTHORIZE_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') params[field] = value;
  }
  return params;
}

/** A whole number in a form field, within bounds; the fallback when the field is empty. */
function formNumber(value: unknown, fallback: number, max: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= max ? n : undefined;
}

/**
 * OAuth 2.0 authorization code with PKCE, as X does it
 * (https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token): the authorize page with its
 * sign-in form, then the token and revoke endpoints.
 */
export function registerOAuthRoutes(
  app: FastifyInstance,
  deps: { world: World; clients: SimClient[]; auth: AuthStore },
) {
  const { clients, auth } = deps;

  app.get('/assets/sign-in.css', async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(signInCss + postPageCss),
  );

  const answerChecked = (reply: FastifyReply, params: AuthorizeParams, checked: Checked) => {
    if ('page' in checked) return errorPage(reply, checked.page);
    if ('redirect' in checked)
      return redirectWith(reply, params.redirect_uri ?? '', {
        ...checked.redirect,
        state: params.state ?? '',
      });
    return undefined;
  };

  app.get('/i/oauth2/authorize', async (request, reply) => {
    const params = pickAuthorize(request.query);
    const checked = checkAuthorize(params, clients);
    if (!('client' in checked)) return answerChecked(reply, params, checked);
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(signInPage(params, { clientName: checked.client.clientId }));
  });

  app.post('/i/oauth2/authorize', async (request, reply) => {
    const { world } = deps;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const params = pickAuthorize(body);
    const checked = checkAuthorize(params, clients);
    if (!('client' in checked)) return answerChecked(reply, params, checked);
    const state = params.state ?? '';
    const redirectUri = params.redirect_uri ?? '';
    if (body.decision !== 'allow') return redirectWith(reply, redirectUri, { error: 'access_denied', state });

    const again = (error: string) =>
      reply
        .code(400)
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(signInPage(params, { clientName: checked.client.clientId, error }));
    const handle = typeof body.handle === 'string' ? body.handle.trim().replace(/^@/, '') : '';
    if (!HANDLE.test(handle)) return again('A handle has 1 to 15 letters, digits or underscores.');
    let user = world.userByUsername(handle);
    if (!user) {
      const ageDays = formNumber(body.account_age_days, 365, 7000);
      if (ageDays === undefined) return again('Account age must be a whole number of days, 0 to 7000.');
      const followers = formNumber(body.followers, 100, 1_000_000_000);
      if (followers === undefined) return again('Follower count must be a whole number.');
      user = world.createUser({ username: handle, createdAt: world.now() - ageDays * DAY_MS, followers });
    }
    if (user.suspended) return again('This account is suspended.');
    const code = auth.issueCode(
      { userId: user.id, clientId: checked.client.clientId, scopes: checked.scopes },
      redirectUri,
      params.code_challenge ?? '',
      challengeMethodOf(params.code_challenge_method),
    );
    return redirectWith(reply, redirectUri, { state, code });
  });

  registerTokenRoutes(app, { clients, auth });
}
