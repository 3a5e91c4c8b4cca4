import fs from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfTokenResponseSchema } from '@manaboard/contract';
import { buildTestApp, type TestApp } from '../test/test-app';
import { writeMinimalWebDist } from '../test/web-dist';

const knownPaths = [
  '/api/public/announcements',
  '/healthz',
  '/readyz',
  '/',
  '/r/@someone',
  '/auth/callback',
  '/linked',
  '/csrf-token',
  '/auth/twitter/start',
  '/auth/twitter/callback',
  '/me/account',
  '/me/unlink',
  '/referrals/apply',
  '/referrals/link',
  '/referrals/status',
  '/referrals/stats',
  '/api/mana',
  '/api/posts',
  '/api/daily-post-limit',
  '/api/daily-post-limit/user/1234',
  '/api/daily-post-limit/user/%00',
  '/api/mana/1234/breakdown',
  '/api/mana/%E2%80%AE/breakdown',
  '/api/programme',
];

const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('', '-1', '0', '1e309', 'NaN', '%', '%zz', '[]', '{}', 'null', '__proto__', 'constructor'),
);

const queryString = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'page',
        'limit',
        'offset',
        'search',
        'weekly',
        '__proto__',
        'x',
        'page[]',
        'state',
        'code',
        'error',
      ),
      queryValue,
    ),
    {
      maxLength: 4,
    },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const rawQuery = fc.constantFrom('', '?', '?&&', '?page', '?page=1&page=2', '?limit=%', '?a[b]=1');

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
  path: fc.oneof(
    fc.constantFrom(...knownPaths),
    // A request line always carries a path starting with '/'.
    fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
    fc.string({ maxLength: 40 }).map((s) => `/api/${encodeURIComponent(s)}`),
  ),
  query: fc.oneof(
    queryString.map((q) => (q ? `?${q}` : '')),
    rawQuery,
  ),
  contentType: fc.constantFrom(
    undefined,
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'garbage',
  ),
  body: fc.option(
    fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json().map((j) => j),
    ),
    { nil: undefined },
  ),
  accept: fc.constantFrom(undefined, 'text/html', 'application/json', '*/*'),
  // With a real browser id and its CSRF token, junk reaches the referral handlers, not just the guards.
  identified: fc.boolean(),
});

const BROWSER_ID = '0b7f5a4e-3c1d-4e2a-9f6b-2d8c1e5a7b90';

/** Property: whatever a client sends, the server answers with a client error or success, never a 5xx. */
describe('junk input', () => {
  let t: TestApp;
  let dist: string;
  let csrfToken: string;
  beforeAll(async () => {
    dist = await writeMinimalWebDist();
    t = await buildTestApp('pglite', { LOG_LEVEL: 'silent', WEB_DIST_DIR: dist });
    const token = await t.app.inject({
      method: 'GET',
      url: '/csrf-token',
      headers: { 'x-user-id': BROWSER_ID },
    });
    csrfToken = csrfTokenResponseSchema.parse(token.json()).data.csrfToken;
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('never causes a 5xx on any route', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        if (r.contentType) headers['content-type'] = r.contentType;
        if (r.accept) headers.accept = r.accept;
        if (r.identified) Object.assign(headers, { 'x-user-id': BROWSER_ID, 'x-csrf-token': csrfToken });
        const withBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        const response = await t.app.inject({
          method: r.method as 'GET',
          url: `${r.path}${r.query}`,
          headers,
          ...(withBody ? { payload: r.body } : {}),
        });
        expect(
          response.statusCode,
          `${r.method} ${r.path}${r.query} → ${response.body.slice(0, 200)}`,
        ).toBeLessThan(500);
        if (response.statusCode >= 400 && response.body) {
          expect(response.body).not.toMatch(/\bat .+\.(ts|js):\d+/);
        }
      }),
      { numRuns: 400 },
    );
  });
});
