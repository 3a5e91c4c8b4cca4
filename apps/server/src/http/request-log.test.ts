import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { World } from '@manaboard/x-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../composition/app';
import { loadConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { openTestDatabase } from '../test/test-database';

type Line = { level: number; msg: string; req?: { url: string }; responseTime?: number; err?: unknown };
type LoggedApp = { app: FastifyInstance; logs: string[] };

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase('pglite');
});
afterAll(() => database.close());
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const lines = (t: LoggedApp): Line[] => t.logs.map((text) => JSON.parse(text) as Line);

/** The real app with the given logging settings, its log lines captured, and two routes of the test's own. */
async function appWith(env: Record<string, string>): Promise<LoggedApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'false', ...env }),
    database,
    logStream,
    simulatedWorld: new World(Date.now()),
  });
  apps.push(app);
  app.get('/test/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 60));
    return { ok: true };
  });
  app.get('/test/fails', async () => {
    throw new Error('boom in a handler');
  });
  return { app, logs };
}

const secrets = () => ({
  'x-user-id': randomUUID(),
  'x-csrf-token': `csrf-${randomUUID()}`,
  authorization: `Bearer ${randomUUID()}`,
  cookie: `session=${randomUUID()}`,
});

describe('request logging at the default level', () => {
  it('writes no line per ordinary request', async () => {
    const t = await appWith({ LOG_LEVEL: 'info', LOG_SAMPLE_RATE: '0' });
    for (let i = 0; i < 20; i++) {
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    }
    expect(lines(t).filter((l) => l.req?.url === '/healthz')).toEqual([]);
  });

  it('logs a slow request at warn, with its time and without its secrets', async () => {
    const t = await appWith({ LOG_LEVEL: 'warn', LOG_SLOW_MS: '40', LOG_SAMPLE_RATE: '0' });
    const headers = secrets();
    expect((await t.app.inject({ url: '/test/slow?code=abc&state=xyz', headers })).statusCode).toBe(200);
    await t.app.inject({ url: '/healthz' });
    const slow = lines(t).filter((l) => l.msg === 'slow request');
    expect(slow).toHaveLength(1);
    expect(slow[0]?.level).toBe(40);
    expect(slow[0]?.req?.url).toBe('/test/slow?code=[redacted]&state=[redacted]');
    expect(slow[0]?.responseTime).toBeGreaterThanOrEqual(40);
    const text = t.logs.join('\n');
    for (const secret of Object.values(headers)) expect(text).not.toContain(secret);
  });

  it('logs errors with their cause', async () => {
    const t = await appWith({ LOG_LEVEL: 'warn', LOG_SAMPLE_RATE: '0' });
    expect((await t.app.inject({ url: '/test/fails' })).statusCode).toBe(500);
    const failed = lines(t).find((l) => l.msg === 'request failed');
    expect(failed?.level).toBe(50);
    expect(JSON.stringify(failed?.err)).toContain('boom in a handler');
  });

  it('logs the sampled share at info, secrets censored', async () => {
    const t = await appWith({ LOG_LEVEL: 'info', LOG_SAMPLE_RATE: '1' });
    const headers = secrets();
    await t.app.inject({ url: '/api/public/announcements?page=1&limit=5', headers });
    const sampled = lines(t).filter((l) => l.msg === 'request completed (sample)');
    expect(sampled.map((l) => [l.level, l.req?.url])).toEqual([
      [30, '/api/public/announcements?page=1&limit=5'],
    ]);
    const text = t.logs.join('\n');
    expect(text).toContain('[redacted]');
    for (const secret of Object.values(headers)) expect(text).not.toContain(secret);
  });

  it('logs every request at debug, as before', async () => {
    const t = await appWith({ LOG_LEVEL: 'debug' });
    await t.app.inject({ url: '/healthz' });
    expect(lines(t).filter((l) => l.req?.url === '/healthz').length).toBeGreaterThanOrEqual(1);
    expect(lines(t).some((l) => l.msg === 'request completed')).toBe(true);
  });
});
