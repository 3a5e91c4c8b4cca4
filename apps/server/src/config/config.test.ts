import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, paths } from './config';

describe('loadConfig', () => {
  it('has defaults that serve the embedded app on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicOrigin: 'http://localhost:3000',
      databaseUrl: undefined,
      seedDemo: true,
      corsOrigins: [],
      trustProxy: false,
    });
    expect(config.dataDir).toBe(path.join(paths.repoRoot, 'data'));
  });

  it('serves no metrics by default, binds a metrics port to loopback, and refuses a short metrics token', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({
      token: undefined,
      port: 9464,
      host: '127.0.0.1',
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 24/);
    expect(loadConfig({}).readyWorkerMaxAgeMs).toBe(600_000);
  });

  it('derives the public origin from PORT and normalises given origins', () => {
    expect(loadConfig({ PORT: '4321' }).publicOrigin).toBe('http://localhost:4321');
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://mana.example.org/some/path' }).publicOrigin).toBe(
      'https://mana.example.org',
    );
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, https://b.example/x ,' }).corsOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('reads a hop count, a boolean or an address list for TRUST_PROXY', () => {
    const hops = loadConfig({ TRUST_PROXY: '1' }).trustProxy;
    expect(typeof hops).toBe('function');
    if (typeof hops === 'function') {
      expect(hops('10.0.0.1', 0)).toBe(true);
      expect(hops('10.0.0.1', 1)).toBe(false);
    }
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
  });

  it('names every invalid variable', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        CORS_ORIGINS: 'not a url',
        SEED_DEMO: 'maybe',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'CORS_ORIGINS', 'SEED_DEMO'])
        expect(message).toContain(name);
    }
  });

  it('reads the reserved handles and rate limits (the referral numbers are programme rules)', () => {
    expect(loadConfig({}).referrals).toEqual({ reservedHandles: [] });
    expect(loadConfig({}).rateLimits).toEqual({
      token: 30,
      auth: 10,
      apply: 10,
      read: 120,
      write: 30,
      ipFactor: 10,
      publicRead: undefined,
    });
    const custom = loadConfig({ RESERVED_HANDLES: ' @Admin, support_team ,' });
    expect(custom.referrals.reservedHandles).toEqual(['Admin', 'support_team']);
    expect(() => loadConfig({ RESERVED_HANDLES: 'not a handle' })).toThrow(/RESERVED_HANDLES/);
    expect(() => loadConfig({ REDIS_URL: 'http://redis' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('reads the slow-client timeouts, the headers one no longer than the whole request', () => {
    expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    const short = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' });
    expect(short.http).toEqual({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('leaves public reads unlimited and the leaderboard cache on unless the operator says otherwise', () => {
    expect(loadConfig({}).rateLimits.publicRead).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT_PUBLIC_READ_PER_MINUTE: '600' }).rateLimits.publicRead).toBe(600);
    expect(() => loadConfig({ RATE_LIMIT_PUBLIC_READ_PER_MINUTE: '0' })).toThrow(
      /RATE_LIMIT_PUBLIC_READ_PER_MINUTE/,
    );
    expect(loadConfig({}).leaderboardCache).toBe(true);
    expect(loadConfig({ LEADERBOARD_CACHE: 'off' }).leaderboardCache).toBe(false);
    expect(() => loadConfig({ LEADERBOARD_CACHE: 'maybe' })).toThrow(/LEADERBOARD_CACHE/);
  });

  it('keeps the default worker schedule unless WORKER_INTERVAL_SECONDS asks for one interval', () => {
    expect(loadConfig({}).workerIntervalSeconds).toBeUndefined();
    expect(loadConfig({ WORKER_INTERVAL_SECONDS: '2' }).workerIntervalSeconds).toBe(2);
    for (const bad of ['0', '1.5', '3601', 'soon']) {
      expect(() => loadConfig({ WORKER_INTERVAL_SECONDS: bad })).toThrow(/WORKER_INTERVAL_SECONDS/);
    }
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });
});
