import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { referralFailureSchema } from '@manaboard/contract';
import { World } from '@manaboard/x-sim';
import { testEnv } from '../config/test-env';
import { newBrowser, type Browser } from '../test/linking-flow';
import { buildTestApp, type TestApp } from '../test/test-app';
import type { RouteClass } from './rate-limits';

const LIMITS = { RATE_LIMIT_TOKEN_PER_MINUTE: '3', RATE_LIMIT_IP_FACTOR: '2', LOG_LEVEL: 'silent' };

const apps: TestApp[] = [];
async function appWith(env: Record<string, string>, namespace?: string): Promise<TestApp> {
  // A small simulated X: these tests never call it, and the demo world takes a while to build.
  const t = await buildTestApp(
    'pglite',
    { ...LIMITS, ...env },
    { world: new World(Date.now()), ...(namespace ? { rateLimitNamespace: namespace } : {}) },
  );
  apps.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

const token = (t: TestApp, browserId: string, extra: { ip?: string; forwardedFor?: string } = {}) =>
  t.app.inject({
    method: 'GET',
    url: '/csrf-token',
    headers: {
      'x-user-id': browserId,
      ...(extra.forwardedFor ? { 'x-forwarded-for': extra.forwardedFor } : {}),
    },
    ...(extra.ip ? { remoteAddress: extra.ip } : {}),
  });

type Reply = Awaited<ReturnType<typeof token>>;

function expectLimited(response: Reply): void {
  expect(response.statusCode).toBe(429);
  expect(referralFailureSchema.parse(response.json()).error).toEqual({
    code: 'RATE_LIMIT_EXCEEDED',
    message: 'Too many requests. Please wait a moment and try again.',
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

function suite(label: string, env: () => Record<string, string>) {
  describe(`rate limits (${label})`, () => {
    it('limits each browser id, then each IP (a multiple of a browser’s budget)', async () => {
      const t = await appWith(env());
      const a = randomUUID();
      for (let i = 0; i < 3; i++) expect((await token(t, a)).statusCode).toBe(200);
      expectLimited(await token(t, a));
      // Another browser on the same address has its own budget, until the address's (2 × 3) runs out.
      const b = randomUUID();
      expect((await token(t, b)).statusCode).toBe(200);
      expect((await token(t, b)).statusCode).toBe(200);
      expectLimited(await token(t, b));
      // Another address is untouched; so is another route class.
      expect((await token(t, randomUUID(), { ip: '192.0.2.7' })).statusCode).toBe(200);
      const read = await t.app.inject({ method: 'GET', url: '/me/account', headers: { 'x-user-id': a } });
      expect(read.statusCode).toBe(200);
    });

    it('counts junk browser ids by IP only (they are refused with 401 anyway)', async () => {
      const t = await appWith(env());
      for (let i = 0; i < 6; i++) expect((await token(t, 'junk')).statusCode).toBe(401);
      expectLimited(await token(t, 'junk'));
    });
  });
}

suite('in-process store', () => ({}));

/** Every limited route, by class, with what it answers while under the limit (a browser that is not linked). */
const routes: Record<
  RouteClass,
  Array<{ route: string; status: number; send: (t: TestApp, b: Browser) => Promise<Reply> }>
> = {
  token: [
    {
      route: 'GET /csrf-token',
      status: 200,
      send: (t, b) => token(t, b.id),
    },
  ],
  auth: [
    {
      route: 'POST /auth/twitter/start',
      status: 200,
      send: (t, b) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/twitter/start',
          headers: b.headers,
          payload: { redirectAfter: `${t.config.publicOrigin}/auth/callback` },
        }),
    },
  ],
  apply: [
    {
      route: 'POST /referrals/apply',
      status: 403,
      send: (t, b) =>
        t.app.inject({
          method: 'POST',
          url: '/referrals/apply',
          headers: b.headers,
          payload: { referrerHandle: 'x' },
        }),
    },
  ],
  read: ['/me/account', '/referrals/status', '/referrals/stats'].map((url) => ({
    route: `GET ${url}`,
    status: 200,
    send: (t: TestApp, b: Browser) => t.app.inject({ method: 'GET', url, headers: { 'x-user-id': b.id } }),
  })),
  write: [
    { url: '/me/unlink', status: 200 },
    { url: '/referrals/link', status: 403 },
  ].map(({ url, status }) => ({
    route: `POST ${url}`,
    status,
    send: (t: TestApp, b: Browser) => t.app.inject({ method: 'POST', url, headers: b.headers, payload: {} }),
  })),
};

const envOf: Record<RouteClass, string> = {
  token: 'RATE_LIMIT_TOKEN_PER_MINUTE',
  auth: 'RATE_LIMIT_AUTH_PER_MINUTE',
  apply: 'RATE_LIMIT_APPLY_PER_MINUTE',
  read: 'RATE_LIMIT_READ_PER_MINUTE',
  write: 'RATE_LIMIT_WRITE_PER_MINUTE',
};
const classes = Object.keys(envOf) as RouteClass[];

describe.each(classes)('the %s route class', (routeClass) => {
  // Only this class is tight; every other class has room, so a 429 can only come from this class's budget.
  const env = Object.fromEntries(classes.map((c) => [envOf[c], c === routeClass ? '2' : '100']));

  it.each(routes[routeClass].map((r) => [r.route, r] as const))(
    '%s: a browser gets its 2 requests, then 429, while its other classes still answer',
    async (_route, { status, send }) => {
      const t = await appWith({ ...env, RATE_LIMIT_IP_FACTOR: '10' });
      const browser = await newBrowser(t);
      // Fetching the browser's CSRF token was already one request of the token class.
      const spent = routeClass === 'token' ? 1 : 0;
      for (let i = spent; i < 2; i++) expect((await send(t, browser)).statusCode).toBe(status);
      expectLimited(await send(t, browser));
      const other = classes.find((c) => c !== routeClass && c !== 'token') ?? 'read';
      const [elsewhere] = routes[other];
      if (!elsewhere) throw new Error('no route');
      expect((await elsewhere.send(t, browser)).statusCode).toBe(elsewhere.status);
    },
  );
});

describe("X's return to the callback over the limit", () => {
  it('is sent to the return page with error=rate_limited, not shown JSON', async () => {
    // Counted per IP only (X's redirect carries no browser id): 2 × 2 returns, then the limit.
    const t = await appWith({ RATE_LIMIT_AUTH_PER_MINUTE: '2', RATE_LIMIT_IP_FACTOR: '2' });
    const callback = () =>
      t.app.inject({
        method: 'GET',
        url: '/auth/twitter/callback?state=s&code=c',
        remoteAddress: '192.0.2.9',
      });
    for (let i = 0; i < 4; i++) {
      const answer = await callback();
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe(`${t.config.publicOrigin}/auth/callback?error=invalid_state`);
    }
    const limited = await callback();
    expect(limited.statusCode).toBe(302);
    expect(limited.headers.location).toBe(`${t.config.publicOrigin}/auth/callback?error=rate_limited`);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['referrer-policy']).toBe('no-referrer');
    expect(limited.headers['cache-control']).toBe('no-store');
  });
});

describe('rate limits behind a proxy', () => {
  it('reads the client address from X-Forwarded-For only when TRUST_PROXY says so', async () => {
    const trusted = await appWith({ TRUST_PROXY: '1' });
    for (let i = 0; i < 6; i++)
      expect((await token(trusted, randomUUID(), { forwardedFor: '198.51.100.1' })).statusCode).toBe(200);
    expectLimited(await token(trusted, randomUUID(), { forwardedFor: '198.51.100.1' }));
    expect((await token(trusted, randomUUID(), { forwardedFor: '198.51.100.2' })).statusCode).toBe(200);

    const untrusting = await appWith({ TRUST_PROXY: 'false' });
    for (let i = 0; i < 6; i++)
      expect((await token(untrusting, randomUUID(), { forwardedFor: `203.0.113.${i}` })).statusCode).toBe(
        200,
      );
    // A forged header does not buy a fresh budget: the proxy's own address is what counts.
    expectLimited(await token(untrusting, randomUUID(), { forwardedFor: '203.0.113.99' }));
  });
});

describe('rate limits with Redis unreachable', () => {
  it('let requests through rather than take the API down', async () => {
    const t = await appWith({ REDIS_URL: 'redis://127.0.0.1:1' });
    for (let i = 0; i < 5; i++) expect((await token(t, randomUUID())).statusCode).toBe(200);
  });
});

describe.skipIf(!testEnv.redisUrl)('rate limits in Redis (TEST_REDIS_URL)', () => {
  const redisEnv = () => ({ REDIS_URL: testEnv.redisUrl ?? '' });
  suite('Redis store', redisEnv);

  it('shares one budget between API processes', async () => {
    const namespace = `mb-test-${randomBytes(6).toString('hex')}:`;
    const first = await appWith(redisEnv(), namespace);
    const second = await appWith(redisEnv(), namespace);
    const browser = randomUUID();
    expect((await token(first, browser)).statusCode).toBe(200);
    expect((await token(second, browser)).statusCode).toBe(200);
    expect((await token(first, browser)).statusCode).toBe(200);
    expectLimited(await token(second, browser));
  });
});
