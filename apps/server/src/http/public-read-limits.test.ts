import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { World } from '@manaboard/x-sim';
import { buildTestApp, type TestApp } from '../test/test-app';
import { testDatabaseKinds } from '../test/test-database';
import { PUBLIC_READ_ROUTES } from './rate-limits';

/** One URL per public read route, with its answer under the limit (an unknown author's breakdown is a 404). */
const PUBLIC_READS: Array<[url: string, status: number]> = [
  ['/api/mana?limit=20&weekly=true', 200],
  ['/api/mana?search=nobody', 200],
  ['/api/mana/1234/breakdown', 404],
  ['/api/mana/1234/records?post=1', 404],
  ['/api/posts?limit=5', 200],
  ['/api/daily-post-limit', 200],
  ['/api/daily-post-limit/user/1234', 200],
  ['/api/public/announcements?page=1&limit=10', 200],
  // The ledger: its index, and a week and an edition that do not exist (long before the first tracked post).
  ['/api/ledger', 200],
  ['/api/ledger/2020-W01', 404],
  ['/api/ledger/2020-W01/1', 404],
];

// Every other class as tight as it gets: a 429 on a public read could only come from its own ceiling.
const TIGHT = {
  LOG_LEVEL: 'silent',
  RATE_LIMIT_TOKEN_PER_MINUTE: '1',
  RATE_LIMIT_READ_PER_MINUTE: '1',
  RATE_LIMIT_WRITE_PER_MINUTE: '1',
  RATE_LIMIT_IP_FACTOR: '1',
};

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

describe.each(testDatabaseKinds())('public reads and rate limits (%s)', (kind) => {
  async function appWith(env: Record<string, string>): Promise<TestApp> {
    const t = await buildTestApp(kind, { ...TIGHT, ...env }, { world: new World(Date.now()) });
    apps.push(t);
    return t;
  }
  const get = (t: TestApp, url: string, ip = '192.0.2.1') =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { 'x-user-id': randomUUID() } });

  it('names every public read route the server has', async () => {
    const t = await appWith({});
    for (const route of PUBLIC_READ_ROUTES) expect(t.app.hasRoute({ method: 'GET', url: route })).toBe(true);
    expect(PUBLIC_READS.map(([url]) => url.split('?')[0])).toEqual(
      expect.arrayContaining([
        '/api/mana',
        '/api/posts',
        '/api/daily-post-limit',
        '/api/public/announcements',
        '/api/ledger',
        '/api/ledger/2020-W01',
        '/api/ledger/2020-W01/1',
      ]),
    );
  });

  it('has no per-IP limit by default, however many reads one address makes', async () => {
    const t = await appWith({});
    for (let i = 0; i < 40; i++) {
      for (const [url, status] of PUBLIC_READS) expect((await get(t, url)).statusCode, url).toBe(status);
    }
  });

  it('takes an operator ceiling per client IP, shared by the public reads, with the community dialect', async () => {
    const t = await appWith({ RATE_LIMIT_PUBLIC_READ_PER_MINUTE: String(PUBLIC_READS.length) });
    for (const [url, status] of PUBLIC_READS) expect((await get(t, url)).statusCode, url).toBe(status);
    for (const [url] of PUBLIC_READS) {
      const limited = await get(t, url);
      expect(limited.statusCode, url).toBe(429);
      expect(limited.json()).toEqual({ success: false, error: expect.any(String) });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Another address has its own budget; routes that are not public reads are not counted against it.
    expect((await get(t, '/api/mana', '192.0.2.2')).statusCode).toBe(200);
    expect((await get(t, '/healthz', '192.0.2.1')).statusCode).toBe(200);
  });

  it('refuses a ceiling that is not a positive whole number', async () => {
    await expect(appWith({ RATE_LIMIT_PUBLIC_READ_PER_MINUTE: '0' })).rejects.toThrow(
      /RATE_LIMIT_PUBLIC_READ_PER_MINUTE/,
    );
  });
});
