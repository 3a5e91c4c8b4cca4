import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountResponseSchema } from '@manaboard/contract';
import {
  followCallback,
  linkAs,
  newBrowser,
  signInAtX,
  startLink,
  startLinkingTest,
  TEST_ORIGIN,
  type Browser,
  type LinkingTest,
} from '../../test/linking-flow';
import { testDatabaseKinds } from '../../test/test-database';
import { parseKey, TokenCipher } from '../../security/token-cipher';
import { NONCE_COOKIE } from './linking-nonce';

/**
 * Login CSRF (account takeover): an attacker starts linking in their own browser and gets a victim to approve the
 * authorize URL at X. The callback then arrives in the victim's browser, which lacks the attacker's nonce cookie,
 * so nothing may be bound: not to the attacker's browser, not anywhere.
 */
describe.each(testDatabaseKinds())('linking binds only the browser that started, on %s', (kind) => {
  let t: LinkingTest;
  beforeAll(async () => {
    t = await startLinkingTest(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const connected = async (browser: Browser) =>
    accountResponseSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/me/account', headers: { 'x-user-id': browser.id } })
      ).json(),
    ).data.connected;
  const accountRows = (handle: string) =>
    t.database.db.selectFrom('accounts').select('id').where('handle', '=', handle).execute();

  it('refuses a callback without the starting browser’s cookie, binds nothing and burns the attempt', async () => {
    const attacker = await newBrowser(t);
    const authorizeUrl = await startLink(t, attacker);
    expect(attacker.cookies.has(NONCE_COOKIE)).toBe(true);
    // The victim approves the attacker's URL; X sends the victim's browser (no cookie of ours) back.
    const callback = await signInAtX(authorizeUrl, 'csrf_victim');
    const victim = await newBrowser(t);
    const landed = await followCallback(t, callback, victim);
    expect(landed.href).toBe(`${TEST_ORIGIN}/auth/callback?error=invalid_state`);
    expect(await connected(attacker)).toBe(false);
    expect(await accountRows('csrf_victim')).toHaveLength(0);
    // The attempt is consumed: the attacker cannot finish it afterwards with the right cookie.
    expect((await followCallback(t, callback, attacker)).searchParams.get('error')).toBe('invalid_state');
    expect(await connected(attacker)).toBe(false);
    expect(t.logs.join('\n')).toContain('did not start the attempt');
  });

  it('refuses a callback carrying another browser’s nonce cookie', async () => {
    const attacker = await newBrowser(t);
    const callback = await signInAtX(await startLink(t, attacker), 'csrf_victim_two');
    // The victim has a linking attempt of their own under way: a valid cookie, but not for this state.
    const victim = await newBrowser(t);
    await startLink(t, victim);
    const landed = await followCallback(t, callback, victim);
    expect(landed.searchParams.get('error')).toBe('invalid_state');
    expect(await connected(attacker)).toBe(false);
    expect(await connected(victim)).toBe(false);
    expect(await accountRows('csrf_victim_two')).toHaveLength(0);
  });

  it('sets the nonce as an HttpOnly, Lax cookie for /auth/twitter only, stores only its hash, clears it after', async () => {
    const browser = await newBrowser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/twitter/start',
      headers: browser.headers,
      payload: { redirectAfter: `${TEST_ORIGIN}/auth/callback` },
    });
    const setCookie = String(response.headers['set-cookie']);
    const nonce = new RegExp(`^${NONCE_COOKIE}=([\\w-]{40,});`).exec(setCookie)?.[1] ?? '';
    expect(nonce).not.toBe('');
    expect(setCookie.split('; ').slice(1).sort()).toEqual(
      ['HttpOnly', 'Max-Age=600', 'Path=/auth/twitter', 'SameSite=Lax'].sort(),
    );
    const state = new URL(response.json().data.authorizeUrl).searchParams.get('state') ?? '';
    const row = await t.database.db
      .selectFrom('oauth_attempts')
      .selectAll()
      .where('state', '=', state)
      .executeTakeFirstOrThrow();
    expect(row.nonce_hash).toBe(createHash('sha256').update(nonce).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(nonce);
    // Set-Cookie and Cookie are redacted headers: the nonce is never logged.
    expect(t.logs.join('\n')).not.toContain(nonce);

    const callback = await t.app.inject({ method: 'GET', url: '/auth/twitter/callback?state=nope' });
    expect(String(callback.headers['set-cookie'])).toMatch(
      new RegExp(`^${NONCE_COOKIE}=; Max-Age=0; Path=/auth/twitter;`),
    );
  });

  it.each(['x'.repeat(200), 'bad handle!', '@', 'Rеf_Cyrillic'])(
    'ignores a referrer slug that cannot be a handle (%s): linking starts and completes without it',
    async (referrerSlug) => {
      const browser = await newBrowser(t);
      const landed = await linkAs(t, browser, `slug_${referrerSlug.length}_${referrerSlug.charCodeAt(1)}`, {
        referrerSlug,
      });
      expect(landed.href).toBe(`${TEST_ORIGIN}/auth/callback`);
      expect(await connected(browser)).toBe(true);
    },
  );

  it('revokes the grant a new login replaces, keeping the new one', async () => {
    const browser = await newBrowser(t);
    await linkAs(t, browser, 'relogger');
    const tokenNow = async () => {
      const row = await t.database.db
        .selectFrom('accounts')
        .select('access_token')
        .where('handle', '=', 'relogger')
        .executeTakeFirstOrThrow();
      return new TokenCipher(parseKey(t.tokenKey)).decrypt(row.access_token ?? '');
    };
    const meWith = (token: string) =>
      fetch(`${t.sim.address}/2/users/me`, { headers: { authorization: `Bearer ${token}` } });
    const first = await tokenNow();
    expect((await meWith(first)).status).toBe(200);
    await linkAs(t, await newBrowser(t), 'relogger');
    const second = await tokenNow();
    expect(second).not.toBe(first);
    expect((await meWith(first)).status).toBe(401);
    expect((await meWith(second)).status).toBe(200);
    expect(await connected(browser)).toBe(true);
  });
});
