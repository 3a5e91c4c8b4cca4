import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { xSimPlugin } from './plugin';
import { APP_BEARER, basic, FORM, TEST_CLIENT } from './test-support';
import { World } from './world';

/** A public client: registered without a secret, as a mobile or single-page app is on X. */
const PUBLIC_CLIENT = { clientId: 'public-app', redirectUris: ['http://public.test/cb'] };

/** Signs alice in with the given PKCE method and client; returns the redirect and the code. */
async function authorize(
  app: Awaited<ReturnType<typeof Fastify>>,
  options: { method: string; challenge: string; clientId: string; redirectUri: string },
) {
  const form = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: 'tweet.read users.read offline.access',
    state: 's1',
    code_challenge: options.challenge,
    code_challenge_method: options.method,
    handle: 'alice',
    decision: 'allow',
  });
  const response = await app.inject({
    method: 'POST',
    url: '/i/oauth2/authorize',
    payload: form.toString(),
    headers: FORM,
  });
  const location = new URL(String(response.headers.location));
  return { location, code: location.searchParams.get('code') ?? '' };
}

describe('simulated X OAuth 2.0: PKCE methods and public clients, as X takes them', () => {
  let app: Awaited<ReturnType<typeof Fastify>>;
  beforeEach(async () => {
    const world = new World(Date.parse('2026-11-22T12:00:00Z'));
    world.createUser({ username: 'alice', followers: 300, createdAt: Date.parse('2020-01-01') });
    app = Fastify();
    await app.register(xSimPlugin, {
      world,
      clients: [TEST_CLIENT, PUBLIC_CLIENT],
      appBearerToken: APP_BEARER,
    });
    await app.ready();
  });

  const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/2/oauth2/token',
      headers: { ...FORM, ...headers },
      payload: new URLSearchParams({ grant_type: 'authorization_code', ...fields }).toString(),
    });
  const confidential = { clientId: TEST_CLIENT.clientId, redirectUri: TEST_CLIENT.redirectUris[0] ?? '' };
  const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

  it.each(['S256', 's256'])(
    'takes code_challenge_method=%s and checks the verifier against its hash',
    async (method) => {
      const verifier = randomBytes(32).toString('base64url');
      const { code } = await authorize(app, { method, challenge: s256(verifier), ...confidential });
      expect(code).not.toBe('');
      const wrong = await token(
        { code, redirect_uri: confidential.redirectUri, code_verifier: s256(verifier) },
        { authorization: basic },
      );
      expect(wrong.statusCode).toBe(400);
      const again = await authorize(app, { method, challenge: s256(verifier), ...confidential });
      const right = await token(
        { code: again.code, redirect_uri: confidential.redirectUri, code_verifier: verifier },
        { authorization: basic },
      );
      expect(right.statusCode).toBe(200);
      expect(right.json().access_token).toEqual(expect.any(String));
    },
  );

  it('takes code_challenge_method=plain: the verifier must equal the challenge itself', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const { code } = await authorize(app, { method: 'plain', challenge: verifier, ...confidential });
    // Under plain, the S256 hash of the verifier is not the verifier: refused.
    const hashed = await token(
      { code, redirect_uri: confidential.redirectUri, code_verifier: s256(verifier) },
      { authorization: basic },
    );
    expect(hashed.statusCode).toBe(400);
    expect(hashed.json().error).toBe('invalid_request');
    const again = await authorize(app, { method: 'plain', challenge: verifier, ...confidential });
    const right = await token(
      { code: again.code, redirect_uri: confidential.redirectUri, code_verifier: verifier },
      { authorization: basic },
    );
    expect(right.statusCode).toBe(200);
  });

  it('gives a public client tokens on PKCE alone, with its client_id in the body', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const redirectUri = PUBLIC_CLIENT.redirectUris[0] ?? '';
    const { code, location } = await authorize(app, {
      method: 's256',
      challenge: s256(verifier),
      clientId: PUBLIC_CLIENT.clientId,
      redirectUri,
    });
    expect(location.origin + location.pathname).toBe(redirectUri);
    const missingId = await token({ code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(missingId.statusCode).toBe(401);
    const wrongVerifier = await token({
      code,
      redirect_uri: redirectUri,
      code_verifier: randomBytes(32).toString('base64url'),
      client_id: PUBLIC_CLIENT.clientId,
    });
    expect(wrongVerifier.statusCode).toBe(400);
    const fresh = await authorize(app, {
      method: 'S256',
      challenge: s256(verifier),
      clientId: PUBLIC_CLIENT.clientId,
      redirectUri,
    });
    const tokens = await token({
      code: fresh.code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: PUBLIC_CLIENT.clientId,
    });
    expect(tokens.statusCode).toBe(200);
    const { access_token: access, refresh_token: refresh } = tokens.json();
    const me = await app.inject({ url: '/2/users/me', headers: { authorization: `Bearer ${access}` } });
    expect(me.json().data.username).toBe('alice');
    // Its refresh token rotates for the same public client, and not for anyone else.
    const refreshWith = (clientId: string, value: string) =>
      app.inject({
        method: 'POST',
        url: '/2/oauth2/token',
        headers: FORM,
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: value,
          client_id: clientId,
        }).toString(),
      });
    expect((await refreshWith('someone-else', refresh)).statusCode).toBe(401);
    expect((await refreshWith(PUBLIC_CLIENT.clientId, refresh)).statusCode).toBe(200);
  });

  it('still refuses a confidential client that names itself in the body without its secret', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const { code } = await authorize(app, { method: 'S256', challenge: s256(verifier), ...confidential });
    const refused = await token({
      code,
      redirect_uri: confidential.redirectUri,
      code_verifier: verifier,
      client_id: TEST_CLIENT.clientId,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('unauthorized_client');
    const wrongSecret = `Basic ${Buffer.from(`${TEST_CLIENT.clientId}:nope`).toString('base64')}`;
    const alsoRefused = await token(
      { code, redirect_uri: confidential.redirectUri, code_verifier: verifier },
      { authorization: wrongSecret },
    );
    expect(alsoRefused.statusCode).toBe(401);
  });
});
