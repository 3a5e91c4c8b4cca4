import pino from 'pino';
import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config';
import type { DatabaseHandle } from '../../db/database';
import { sample } from '../../test/metrics-sample';
import { startSimulatedX } from '../../test/simulated-x';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { createWorkerRuntime } from '../../composition/worker-runtime';
import { Metrics } from './metrics';
import { startMetricsServer } from './metrics-server';

describe.each(testDatabaseKinds())('the worker’s metrics on the metrics port (%s)', (kind) => {
  let database: DatabaseHandle;
  let sim: Awaited<ReturnType<typeof startSimulatedX>>;
  let world: World;
  beforeAll(async () => {
    // The world's clock is the wall clock's: the worker runs on the system clock, as `start:worker` does.
    world = new World(Date.now());
    const ann = world.createUser({
      username: 'ann_b',
      createdAt: Date.now() - 400 * 86_400_000,
      followers: 50,
    });
    world.createPost(ann.id, 'first steps on #ManaBoard', Date.now() - 600_000);
    sim = await startSimulatedX(world);
    database = await openTestDatabase(kind);
  }, 180_000);
  afterAll(async () => {
    await sim.close();
    await database.close();
  });

  it('counts job runs, items and network calls, shows rate-limit windows and the totals lag', async () => {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), x: sim.config };
    const metrics = new Metrics({ db: database.db, monthlyReadCap: 5_000 });
    const runtime = await createWorkerRuntime({ config, database, log: pino({ level: 'silent' }), metrics });
    const server = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1' });
    const scrape = async () => {
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      return response.text();
    };
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
      expect(metrics.lastJobRunAt).toBeUndefined();

      await runtime.worker.runJob('search');
      world.createPost(world.userByUsername('ann_b')?.id ?? '', 'more #ManaBoard', world.now() - 1000);
      await runtime.worker.runJob('search');
      let body = await scrape();
      expect(sample(body, 'manaboard_job_runs_total{job="search",result="ok"}')).toBe(2);
      expect(sample(body, 'manaboard_job_duration_seconds_count{job="search"}')).toBe(2);
      expect(sample(body, 'manaboard_network_calls_total{endpoint="search/recent",status="200"}')).toBe(2);
      expect(
        sample(body, 'manaboard_network_rate_limit_remaining{endpoint="search/recent"}'),
      ).toBeGreaterThan(0);
      expect(sample(body, 'manaboard_network_reads_this_month')).toBeGreaterThanOrEqual(2);
      expect(sample(body, 'manaboard_network_monthly_read_cap')).toBe(5_000);
      // Posts were seen by two searches and no totals run has counted them yet.
      expect(sample(body, 'manaboard_totals_lag_seconds')).toBeGreaterThan(0);
      expect(metrics.lastJobRunAt).toBeGreaterThan(Date.now() - 60_000);

      await runtime.worker.runJob('totals');
      body = await scrape();
      expect(sample(body, 'manaboard_job_runs_total{job="totals",result="ok"}')).toBe(1);
      expect(sample(body, 'manaboard_job_items_total{job="totals",kind="authors"}')).toBe(1);
      expect(sample(body, 'manaboard_totals_lag_seconds')).toBe(0);

      sim.faults.serverErrors('search/recent', 50, 503);
      await runtime.worker.runJob('search');
      body = await scrape();
      expect(sample(body, 'manaboard_job_runs_total{job="search",result="error"}')).toBe(1);
      expect(
        sample(body, 'manaboard_network_calls_total{endpoint="search/recent",status="503"}'),
      ).toBeGreaterThan(0);
    } finally {
      await runtime.stop();
      await server.close();
    }
  });
});
