import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessionResponseSchema } from '@manaboard/contract/admin';
import {
  adminRequest,
  adminSignInAs,
  newAdminBrowser,
  signedInAdmin,
  startAdminSignIn,
} from '../../test/admin-flow';
import {
  followCallback,
  signInAtX,
  startLinkingTest,
  TEST_ORIGIN,
  type LinkingTest,
} from '../../test/linking-flow';
import { testDatabaseKinds } from '../../test/test-database';
import { ADMIN_SESSION_COOKIE, hashSessionId, sessionCookie } from './admin-cookies';

const MINUTE = 60_000;

describe('the console session cookie', () => {
  it('is HttpOnly, SameSite=Strict, Path=/, and Secure on https', () => {
    const plain = sessionCookie('a'.repeat(43), 'http://localhost:3000', 3_600_000);
    expect(plain).toBe(
      `${ADMIN_SESSION_COOKIE}=${'a'.repeat(43)}; Max-Age=3600; Path=/; HttpOnly; SameSite=Strict`,
    );
    expect(sessionCookie('b'.repeat(43), 'https://mana.example.org', 1000)).toMatch(/; Secure$/);
  });
});

describe.each(testDatabaseKinds())('signing in to the console on %s', (kind) => {
  let t: LinkingTest;
  beforeAll(async () => {
    t = await startLinkingTest(kind, {
      ADMIN_ACCOUNTS: '@Chief_Op',
      ADMIN_SESSION_IDLE_MINUTES: '30',
      ADMIN_SESSION_MAX_HOURS: '1',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives an admin a session cookie, stores only its hash, and audits the sign-in', async () => {
    const browser = newAdminBrowser();
    const landed = await adminSignInAs(t, browser, 'chief_op');
    expect(landed.href).toBe(`${TEST_ORIGIN}/admin`);
    const id = browser.cookies.get(ADMIN_SESSION_COOKIE)?.value ?? '';
    expect(id).toMatch(/^[\w-]{43}$/);
    const rows = await t.database.db.selectFrom('admin_sessions').selectAll().execute();
    expect(rows.map((r) => r.id_hash)).toContain(hashSessionId(id));
    expect(JSON.stringify(rows)).not.toContain(id);
    const session = await adminRequest(t, browser, 'GET', '/api/admin/session');
    expect(session.statusCode).toBe(200);
    expect(session.headers['cache-control']).toBe('no-store');
    const body = adminSessionResponseSchema.parse(session.json());
    expect(body.admin.handle).toBe('chief_op');
    expect(body.idleTimeoutSeconds).toBe(1800);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'admin.sign_in')
      .execute();
    expect(audit.at(-1)?.actor).toBe(`admin:@chief_op (${body.admin.networkUserId})`);
  });

  it('refuses an account ADMIN_ACCOUNTS does not name, with a reason and no session', async () => {
    const browser = newAdminBrowser();
    const landed = await adminSignInAs(t, browser, 'just_a_fan');
    expect(landed.href).toBe(`${TEST_ORIGIN}/admin?error=not_admin`);
    expect(browser.cookies.has(ADMIN_SESSION_COOKIE)).toBe(false);
    expect((await adminRequest(t, browser, 'GET', '/api/admin/session')).statusCode).toBe(401);
  });

  it('takes an admin named by network user id', async () => {
    const user = t.world.createUser({
      username: 'renamed_boss',
      createdAt: t.world.now() - 400 * 86_400_000,
    });
    t.config.admin.accounts.push(user.id);
    try {
      await signedInAdmin(t, 'renamed_boss');
    } finally {
      t.config.admin.accounts.pop();
    }
  });

  it('completes only in the browser that started it, once', async () => {
    const starter = newAdminBrowser();
    const callback = await signInAtX(await startAdminSignIn(t, starter), 'chief_op');
    const stranger = newAdminBrowser();
    const elsewhere = await followCallback(t, callback, stranger);
    expect(elsewhere.searchParams.get('error')).toBe('invalid_state');
    expect(stranger.cookies.has(ADMIN_SESSION_COOKIE)).toBe(false);
    const replay = await followCallback(t, callback, starter);
    expect(replay.searchParams.get('error')).toBe('invalid_state');
  });

  it('tells a sign-in refused at the network apart', async () => {
    const browser = newAdminBrowser();
    const landed = await adminSignInAs(t, browser, 'chief_op', { decision: 'deny' });
    expect(landed.searchParams.get('error')).toBe('access_denied');
  });

  it('signs out: the session row is deleted and the cookie cleared', async () => {
    const admin = await signedInAdmin(t, 'chief_op');
    const id = admin.cookies.get(ADMIN_SESSION_COOKIE)?.value ?? '';
    const before = { ...admin, cookies: new Map(admin.cookies) };
    const out = await adminRequest(t, admin, 'POST', '/api/admin/sign-out');
    expect(out.statusCode, out.body).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain(`${ADMIN_SESSION_COOKIE}=; Max-Age=0`);
    const row = await t.database.db
      .selectFrom('admin_sessions')
      .selectAll()
      .where('id_hash', '=', hashSessionId(id))
      .executeTakeFirst();
    expect(row).toBeUndefined();
    // A kept copy of the cookie is worthless.
    expect((await adminRequest(t, before, 'GET', '/api/admin/session')).statusCode).toBe(401);
  });

  it('ends a session after its absolute lifetime even while in use', async () => {
    const admin = await signedInAdmin(t, 'chief_op');
    for (const step of [25, 25]) {
      t.world.clock.advance(step * MINUTE);
      expect((await adminRequest(t, admin, 'GET', '/api/admin/session')).statusCode).toBe(200);
    }
    t.world.clock.advance(11 * MINUTE);
    const late = await adminRequest(t, admin, 'GET', '/api/admin/session');
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ success: false, error: 'Your console session has ended. Sign in again.' });
  });
});
