import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_BEARER, basic, codeFor, exchangeCode, FORM, signIn, simApp, TEST_CLIENT } from './test-support';
import { World } from './world';

const redirect = TEST_CLIENT.redirectUris[0] ?? '';

describe('simulated X OAuth 2.0: tokens', () => {
  let world: World;
  let app: Awaited<ReturnType<typeof simApp>>['app'];
  beforeEach(async () => {
    world = new World(Date.parse('2026-11-22T12:00:00Z'));
    world.createUser({ username: 'alice', followers: 300, createdAt: Date.parse('2020-01-01') });
    ({ app } = await simApp(world));
  });

  const exchange = (code: string, verifier: string, redirectUri?: string) =>
    exchangeCode(app, code, verifier, redirectUri);
  const refresh = (token: string) =>
    app.inject({
      method: 'POST',
      url: '/2/oauth2/token',
      headers: { ...FORM, authorization: basic },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
    });
  const revoke = (token: string) =>
    app.inject({
      method: 'POST',
      url: '/2/oauth2/revoke',
      headers: { ...FORM, authorization: basic },
      payload: new URLSearchParams({ token }).toString(),
    });
  const me = (token: string) =>
    app.inject({ url: '/2/users/me', headers: { authorization: `Bearer ${token}` } });

  it('refuses a wrong verifier, a reused code, an expired code and a different redirect URI', async () => {
    const wrong = await codeFor(app, 'alice');
    const refused = await exchange(wrong.code, randomBytes(32).toString('base64url'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_request');

    const reused = await codeFor(app, 'alice');
    expect((await exchange(reused.code, reused.verifier)).statusCode).toBe(200);
    expect((await exchange(reused.code, reused.verifier)).statusCode).toBe(400);

    const late = await codeFor(app, 'alice');
    world.advance(29_000);
    expect((await exchange(late.code, late.verifier)).statusCode).toBe(200);

    const expired = await codeFor(app, 'alice');
    world.advance(31_000);
    expect((await exchange(expired.code, expired.verifier)).statusCode).toBe(400);

    const mismatch = await codeFor(app, 'alice');
    expect((await exchange(mismatch.code, mismatch.verifier, 'http://app.test/other')).statusCode).toBe(400);
  });

  it('keeps codes and tokens on their own clock when given one (a demo fast-forwarding its world)', async () => {
    let wall = Date.parse('2026-11-22T12:00:00Z');
    const demo = await simApp(world, { oauthClock: () => wall });
    const { code, verifier } = await codeFor(demo.app, 'alice');
    world.advance(6 * 3_600_000);
    const tokens = await exchangeCode(demo.app, code, verifier);
    expect(tokens.statusCode).toBe(200);
    const access = tokens.json().access_token as string;
    world.advance(6 * 3_600_000);
    const meOk = await demo.app.inject({
      url: '/2/users/me',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(meOk.statusCode).toBe(200);
    wall += 2 * 3_600_000;
    const meLate = await demo.app.inject({
      url: '/2/users/me',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(meLate.statusCode).toBe(401);
  });

  it('needs the client secret in Basic auth', async () => {
    const { code, verifier } = await codeFor(app, 'alice');
    const response = await app.inject({
      method: 'POST',
      url: '/2/oauth2/token',
      headers: FORM,
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        code_verifier: verifier,
        client_id: TEST_CLIENT.clientId,
      }).toString(),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: 'unauthorized_client',
      error_description: 'Missing valid authorization header',
    });
  });

  it('rotates refresh tokens, only with offline.access, and revokes', async () => {
    const { tokens } = await signIn(app, 'alice');
    const first = await refresh(tokens.refresh_token ?? '');
    expect(first.statusCode).toBe(200);
    expect(first.json().refresh_token).not.toBe(tokens.refresh_token);
    expect((await refresh(tokens.refresh_token ?? '')).statusCode).toBe(400);
    expect((await refresh(first.json().refresh_token as string)).statusCode).toBe(200);

    const noOffline = await signIn(app, 'alice', 'tweet.read users.read');
    expect(noOffline.tokens.refresh_token).toBeUndefined();
    // An access token cannot stand in for the refresh token it never got.
    expect((await refresh(noOffline.tokens.access_token)).statusCode).toBe(400);

    const access = first.json().access_token as string;
    expect((await revoke(access)).json()).toEqual({ revoked: true });
    expect((await me(access)).statusCode).toBe(401);
  });

  it('expires access tokens after 2 hours', async () => {
    const { tokens } = await signIn(app, 'alice');
    world.advance(2 * 60 * 60 * 1000 - 1);
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    world.advance(1);
    expect((await me(tokens.access_token)).statusCode).toBe(401);
    // The app's bearer is not a user: users/me needs user context.
    expect((await me(APP_BEARER)).statusCode).toBe(403);
  });

  it('revokes every token of a grant when its code is replayed (RFC 6749 §4.1.2)', async () => {
    const { code, verifier } = await codeFor(app, 'alice');
    const access = (await exchange(code, verifier)).json().access_token as string;
    expect((await me(access)).statusCode).toBe(200);
    expect((await exchange(code, verifier)).statusCode).toBe(400);
    expect((await me(access)).statusCode).toBe(401);
  });

  it('ends the access tokens of a grant whose refresh token is revoked', async () => {
    const { tokens } = await signIn(app, 'alice');
    expect((await revoke(tokens.refresh_token ?? '')).statusCode).toBe(200);
    expect((await me(tokens.access_token)).statusCode).toBe(401);
    expect((await refresh(tokens.refresh_token ?? '')).statusCode).toBe(400);
  });

  it('answers malformed token requests with OAuth errors, never a 5xx', async () => {
    const encoded = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    const cases: [string, string, number, string][] = [
      ['Basic !!!', 'grant_type=refresh_token', 401, 'unauthorized_client'],
      [encoded('no-colon'), 'grant_type=refresh_token', 401, 'unauthorized_client'],
      [encoded('%E0%A4%A:x'), 'grant_type=refresh_token', 401, 'unauthorized_client'],
      [basic, '', 400, 'invalid_request'],
      [basic, 'grant_type=password', 400, 'unsupported_grant_type'],
      [basic, 'grant_type=authorization_code&code=abc', 400, 'invalid_request'],
      [basic, 'grant_type=refresh_token&refresh_token=nope', 400, 'invalid_request'],
      [basic, 'grant_type=refresh_token&client_id=other', 401, 'unauthorized_client'],
    ];
    for (const [authorization, payload, status, error] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/2/oauth2/token',
        headers: { ...FORM, authorization },
        payload,
      });
      expect([response.statusCode, response.json().error], payload).toEqual([status, error]);
      expect(response.json().error_description).toEqual(expect.any(String));
    }
    const revokeWithout = await app.inject({
      method: 'POST',
      url: '/2/oauth2/revoke',
      headers: { ...FORM, authorization: basic },
      payload: '',
    });
    expect(revokeWithout.json().error).toBe('invalid_request');
  });
});
