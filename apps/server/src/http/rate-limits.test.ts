import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { referralFailureSchema } from '@manaboard/contract';
import { World } from '@manaboard/x-sim';
import { testEnv } from '../config/test-env';
import { buildTestApp, type TestApp } from '../test/test-app';

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

function expectLimited(response: Awaited<ReturnType<typeof token>>): void {
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
