import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { sample } from '../../test/metrics-sample';
import { testDatabaseKinds } from '../../test/test-database';

const TOKEN = 'metrics-token-0123456789abcdef';

describe.each(testDatabaseKinds())('GET /metrics on the public port (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind, { METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  const scrape = () => t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

  it('does not exist without METRICS_TOKEN', async () => {
    const bare = await buildTestApp(kind);
    try {
      const response = await bare.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('manaboard_');
    } finally {
      await bare.close();
    }
  });

  it('refuses a missing or wrong token with 401 and says what is needed', async () => {
    for (const authorization of [undefined, 'Bearer nope', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, 'Bearer ']) {
      const response = await t.app.inject({
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json()).toEqual({ success: false, error: expect.stringContaining('METRICS_TOKEN') });
      expect(response.body).not.toContain(TOKEN);
    }
  });

  it('counts requests by route pattern and status, and the leaderboard cache hits and misses', async () => {
    expect((await t.app.inject({ url: '/api/mana?limit=5' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/mana?limit=5' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/mana/1234/breakdown' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/no-such-thing/42' })).statusCode).toBe(404);
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.body;
    expect(
      sample(
        body,
        'manaboard_http_request_duration_seconds_count{route="/api/mana",method="GET",status="200"}',
      ),
    ).toBe(2);
    expect(
      sample(
        body,
        'manaboard_http_request_duration_seconds_count{route="/api/mana/:authorId/breakdown",method="GET",status="404"}',
      ),
    ).toBe(1);
    // Unknown paths share one label: a scanner cannot blow up the number of series.
    expect(
      sample(
        body,
        'manaboard_http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}',
      ),
    ).toBe(1);
    expect(body).not.toContain('no-such-thing');
    expect(sample(body, 'manaboard_leaderboard_cache_misses_total')).toBe(1);
    expect(sample(body, 'manaboard_leaderboard_cache_hits_total')).toBe(1);
  });

  it('shows the event-loop delay, memory, the month’s reads and the totals lag', async () => {
    const body = (await scrape()).body;
    expect(sample(body, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    expect(sample(body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    const serving = (kind: string) =>
      sample(body, `manaboard_thread_heap_bytes{thread="serving",kind="${kind}"}`);
    expect(serving('used')).toBeGreaterThan(1_000_000);
    expect(serving('total')).toBeGreaterThanOrEqual(serving('used') ?? Infinity);
    expect(serving('external')).toBeGreaterThan(0);
    expect(sample(body, 'manaboard_network_reads_this_month')).toBe(0);
    expect(sample(body, 'manaboard_totals_lag_seconds')).toBe(0);
    expect(body).toContain('# TYPE manaboard_job_runs_total counter');
  });
});
