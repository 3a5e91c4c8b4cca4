import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountResponseSchema, referralFailureSchema, unlinkResponseSchema } from '@manaboard/contract';
import {
  followCallback,
  linkAs,
  linkedBrowser,
  newBrowser,
  signInAtX,
  startLink,
  startLinkingTest,
  TEST_ORIGIN,
  type LinkingTest,
} from '../../test/linking-flow';
import { testDatabaseKinds } from '../../test/test-database';
import { parseKey, TokenCipher } from '../../security/token-cipher';

describe.each(testDatabaseKinds())('linking an X account on %s', (kind) => {
  let t: LinkingTest;
  beforeAll(async () => {
    t = await startLinkingTest(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const account = async (browserId: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/me/account',
      headers: { 'x-user-id': browserId },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return accountResponseSchema.parse(response.json()).data;
  };

  it('starts with PKCE at the simulated X, for our exact callback URL', async () => {
    const browser = await newBrowser(t);
    const url = new URL(await startLink(t, browser, { redirectAfter: `${TEST_ORIGIN}/linked` }));
    expect(url.href.startsWith(t.sim.config.authorizeUrl)).toBe(true);
    expect(url.searchParams.get('redirect_uri')).toBe(`${TEST_ORIGIN}/auth/twitter/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
  });

  it('links end to end: sign in at X, back to redirectAfter, /me/account shows the handle', async () => {
    const browser = await newBrowser(t);
    expect(await account(browser.id)).toEqual({ connected: false, handle: null, avatarUrl: null });
    const landed = await linkAs(t, browser, 'ann_linker');
    expect(landed.href).toBe(`${TEST_ORIGIN}/auth/callback`);
    const info = await account(browser.id);
    expect(info).toMatchObject({ connected: true, handle: 'ann_linker' });
    expect(info.avatarUrl).toMatch(/^http/);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.link')
      .execute();
    expect(audit.some((row) => JSON.stringify(row.details).includes('ann_linker'))).toBe(true);
  });

  it('refreshes the handle on every login and links one X account from several browsers', async () => {
    const first = await linkedBrowser(t, 'renamer');
    const user = t.world.userByUsername('renamer');
    if (!user) throw new Error('no user');
    t.world.rename(user.id, 'renamed_now');
    const second = await newBrowser(t);
    await linkAs(t, second, 'renamed_now');
    expect((await account(first.id)).handle).toBe('renamed_now');
    expect((await account(second.id)).handle).toBe('renamed_now');
    const rows = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('network_user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it.each([
    `http://evil.example/auth/callback`,
    `${TEST_ORIGIN}/elsewhere`,
    `${TEST_ORIGIN}/auth/callback?next=http://evil.example`,
    `//evil.example/auth/callback`,
    'javascript:alert(1)',
    `http://user:pw@127.0.0.1:1/linked`,
  ])('refuses redirectAfter %s with a 400 (no open redirect)', async (redirectAfter) => {
    const browser = await newBrowser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/twitter/start',
      headers: browser.headers,
      payload: { redirectAfter },
    });
    expect(response.statusCode).toBe(400);
    expect(referralFailureSchema.parse(response.json()).error.code).toBe('BAD_REQUEST');
  });

  it('needs a UUID browser id and that browser’s own CSRF token', async () => {
    const browser = await newBrowser(t);
    const other = await newBrowser(t);
    const payload = { redirectAfter: `${TEST_ORIGIN}/auth/callback` };
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/auth/twitter/start',
      headers: { 'x-user-id': browser.id, 'x-csrf-token': other.csrf },
      payload,
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('CSRF_INVALID');
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/me/account',
      headers: { 'x-user-id': 'nope' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('UNAUTHORIZED');
  });

  it('uses a state once: a replayed callback is refused', async () => {
    const browser = await newBrowser(t);
    const callback = await signInAtX(await startLink(t, browser), 'replayer');
    expect((await followCallback(t, callback, browser)).searchParams.get('error')).toBeNull();
    // The one-time code and state are censored in request logs too.
    const logs = t.logs.join('\n');
    for (const secret of ['code', 'state']) {
      const value = callback.searchParams.get(secret) ?? '';
      expect(value.length).toBeGreaterThan(8);
      expect(logs).not.toContain(value);
    }
    const replay = await followCallback(t, callback, browser);
    expect(replay.href).toBe(`${TEST_ORIGIN}/auth/callback?error=invalid_state`);
  });

  it('refuses an unknown state and a missing one', async () => {
    for (const query of ['?state=made-up&code=abc', '?code=abc', '']) {
      const response = await t.app.inject({ method: 'GET', url: `/auth/twitter/callback${query}` });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(`${TEST_ORIGIN}/auth/callback?error=invalid_state`);
    }
  });

  it('refuses a state older than 10 minutes', async () => {
    const browser = await newBrowser(t);
    const authorizeUrl = await startLink(t, browser, { redirectAfter: `${TEST_ORIGIN}/linked` });
    t.world.advance(10 * 60 * 1000 + 1);
    const landed = await followCallback(t, await signInAtX(authorizeUrl, 'too_slow'), browser);
    expect(landed.href).toBe(`${TEST_ORIGIN}/linked?error=state_expired`);
    expect((await account(browser.id)).connected).toBe(false);
  });

  it('reports Cancel at X as access_denied', async () => {
    const browser = await newBrowser(t);
    const landed = await linkAs(t, browser, 'canceller', { decision: 'deny' });
    expect(landed.href).toBe(`${TEST_ORIGIN}/auth/callback?error=access_denied`);
  });

  it('fails the exchange when the PKCE verifier is not the one the challenge was made from', async () => {
    const browser = await newBrowser(t);
    const authorizeUrl = await startLink(t, browser);
    const state = new URL(authorizeUrl).searchParams.get('state') ?? '';
    await t.database.db
      .updateTable('oauth_attempts')
      .set({ code_verifier: 'x'.repeat(64) })
      .where('state', '=', state)
      .execute();
    const landed = await followCallback(t, await signInAtX(authorizeUrl, 'pkce_victim'), browser);
    expect(landed.searchParams.get('error')).toBe('exchange_failed');
    expect((await account(browser.id)).connected).toBe(false);
  });

  it('stores X tokens sealed: the raw row holds no token X issued', async () => {
    await linkedBrowser(t, 'sealed_one');
    const row = await t.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('handle', '=', 'sealed_one')
      .executeTakeFirstOrThrow();
    expect(row.access_token).toMatch(/^v1\./);
    expect(row.refresh_token).toMatch(/^v1\./);
    const cipher = new TokenCipher(parseKey(t.tokenKey));
    const accessToken = cipher.decrypt(row.access_token ?? '');
    const refreshToken = cipher.decrypt(row.refresh_token ?? '');
    const raw = JSON.stringify(row);
    expect(raw).not.toContain(accessToken);
    expect(raw).not.toContain(refreshToken);
    const me = (token: string) =>
      fetch(`${t.sim.address}/2/users/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me(accessToken)).status).toBe(200);
    expect((await me(row.access_token ?? '')).status).toBe(401);
  });

  it('never writes the browser id to the log', async () => {
    const browser = await linkedBrowser(t, 'quiet_one');
    await account(browser.id);
    expect(t.logs.length).toBeGreaterThan(0);
    expect(t.logs.join('\n')).not.toContain(browser.id);
  });

  it('unlinks this browser; the X grant is revoked only when no browser remains', async () => {
    const first = await linkedBrowser(t, 'leaver');
    const second = await newBrowser(t);
    await linkAs(t, second, 'leaver');
    const unlink = (browser: typeof first) =>
      t.app.inject({ method: 'POST', url: '/me/unlink', headers: browser.headers, payload: {} });

    const sealedTokenWorks = async () => {
      const row = await t.database.db
        .selectFrom('accounts')
        .selectAll()
        .where('handle', '=', 'leaver')
        .executeTakeFirstOrThrow();
      return row.access_token ? new TokenCipher(parseKey(t.tokenKey)).decrypt(row.access_token) : undefined;
    };
    const token = await sealedTokenWorks();
    if (!token) throw new Error('no token stored');
    const meWith = (accessToken: string) =>
      fetch(`${t.sim.address}/2/users/me`, { headers: { authorization: `Bearer ${accessToken}` } });

    expect(unlinkResponseSchema.parse((await unlink(first)).json()).data).toEqual({ unlinked: true });
    expect((await account(first.id)).connected).toBe(false);
    expect((await account(second.id)).connected).toBe(true);
    expect((await meWith(token)).status).toBe(200);

    expect(unlinkResponseSchema.parse((await unlink(second)).json()).data).toEqual({ unlinked: true });
    expect((await meWith(token)).status).toBe(401);
    expect(await sealedTokenWorks()).toBeUndefined();
    expect(unlinkResponseSchema.parse((await unlink(second)).json()).data).toEqual({ unlinked: false });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'account.unlink')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });
});
