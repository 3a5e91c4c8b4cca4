import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityFailureSchema } from '@manaboard/contract';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../test/admin-flow';
import { cookieHeader, linkedBrowser, startLinkingTest, type LinkingTest } from '../../test/linking-flow';
import { testDatabaseKinds } from '../../test/test-database';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
type Route = { method: Method; url: string };

const IDLE_MINUTES = 30;

/** A concrete URL for a route pattern: any `:param` gets a value of the right shape (a UUID, an action…). */
function concrete(url: string): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => (name === 'action' ? 'publish' : randomUUID()));
}

/**
 * Every route registered under /api/admin, whoever registered it and wherever (the list is taken from Fastify
 * as routes are added, so a section added later is covered without touching this test), is closed to an anonymous
 * caller, to a linked member of the member pages (browser id, CSRF token, member cookies), to an expired console
 * session and to a session whose account ADMIN_ACCOUNTS no longer names.
 */
describe.each(testDatabaseKinds())('authorisation of every /api/admin route on %s', (kind) => {
  let t: LinkingTest;
  const routes: Route[] = [];
  beforeAll(async () => {
    t = await startLinkingTest(
      kind,
      { ADMIN_ACCOUNTS: 'boss_admin', ADMIN_SESSION_IDLE_MINUTES: String(IDLE_MINUTES) },
      {
        onRoute: ({ method, url }) => {
          if (url !== '/api/admin' && !url.startsWith('/api/admin/')) return;
          for (const m of Array.isArray(method) ? method : [method])
            routes.push({ method: m as Method, url });
        },
      },
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const each = async (send: (route: Route) => ReturnType<typeof adminRequest>, allowed: number[]) => {
    const answers: string[] = [];
    for (const route of routes) {
      const response = await send(route);
      answers.push(`${route.method} ${route.url} → ${response.statusCode}`);
      if (!allowed.includes(response.statusCode)) continue;
      if (route.method !== 'HEAD')
        expect(communityFailureSchema.safeParse(response.json()).success).toBe(true);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(answers.filter((line) => !allowed.some((status) => line.endsWith(`→ ${status}`)))).toEqual([]);
    return answers;
  };

  it('finds the admin routes (sections included)', () => {
    const names = routes.map((route) => `${route.method} ${route.url}`);
    for (const expected of [
      'GET /api/admin/session',
      'POST /api/admin/sign-out',
      'GET /api/admin/announcements',
      'POST /api/admin/announcements',
      'PUT /api/admin/announcements/:id',
      'POST /api/admin/announcements/:id/:action',
      'DELETE /api/admin/announcements/:id',
      'GET /api/admin/audit',
      'GET /api/admin/audit.csv',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('answers 401 to an anonymous caller on every route and method', async () => {
    const anonymous: AdminBrowser = { id: '', csrf: '', headers: {}, cookies: new Map() };
    await each((route) => adminRequest(t, anonymous, route.method, concrete(route.url)), [401]);
  });

  it('answers 401 to a linked member of the member pages, whatever they send', async () => {
    const member = await linkedBrowser(t, 'plain_member');
    await each(
      (route) => {
        const url = concrete(route.url);
        const write = route.method !== 'GET' && route.method !== 'HEAD';
        return t.app.inject({
          method: route.method,
          url,
          headers: { ...member.headers, ...cookieHeader(member, url) },
          ...(write ? { payload: {} } : {}),
        });
      },
      [401],
    );
  });

  it('answers 401 to a console session past its idle timeout, and the session is gone', async () => {
    const admin = await signedInAdmin(t, 'boss_admin');
    expect((await adminRequest(t, admin, 'GET', '/api/admin/session')).statusCode).toBe(200);
    t.world.clock.advance((IDLE_MINUTES + 1) * 60_000);
    await each((route) => adminRequest(t, admin, route.method, concrete(route.url)), [401]);
    const rows = await t.database.db.selectFrom('admin_sessions').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('answers 403 once ADMIN_ACCOUNTS no longer names the account (sign-out still works)', async () => {
    const admin = await signedInAdmin(t, 'boss_admin');
    const accounts = t.config.admin.accounts;
    const saved = [...accounts];
    accounts.splice(0, accounts.length, 'someone_else');
    try {
      const signOut = routes.filter((r) => r.url === '/api/admin/sign-out');
      const others = routes.filter((r) => r.url !== '/api/admin/sign-out');
      expect(signOut.length).toBe(1);
      const answers: string[] = [];
      for (const route of others) {
        const response = await adminRequest(t, admin, route.method, concrete(route.url));
        answers.push(`${route.method} ${route.url} → ${response.statusCode}`);
      }
      expect(answers.filter((line) => !line.endsWith('→ 403'))).toEqual([]);
      const out = await adminRequest(t, admin, 'POST', '/api/admin/sign-out');
      expect(out.statusCode, out.body).toBe(200);
      expect((await adminRequest(t, admin, 'GET', '/api/admin/session')).statusCode).toBe(401);
    } finally {
      accounts.splice(0, accounts.length, ...saved);
    }
  });

  it('lets the admin in, and refuses every write without the session’s CSRF token', async () => {
    const admin = await signedInAdmin(t, 'boss_admin');
    for (const route of routes) {
      if (route.method === 'GET' || route.method === 'HEAD') continue;
      const noToken = await adminRequest(t, { ...admin, csrf: '' }, route.method, concrete(route.url));
      expect(noToken.statusCode, `${route.method} ${route.url}`).toBe(403);
      const member = await linkedBrowser(t, 'token_thief');
      const wrong = await adminRequest(t, { ...admin, csrf: member.csrf }, route.method, concrete(route.url));
      expect(wrong.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect((await adminRequest(t, admin, 'GET', '/api/admin/announcements')).statusCode).toBe(200);
  });
});
