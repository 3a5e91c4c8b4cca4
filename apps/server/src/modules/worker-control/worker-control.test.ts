import pino from 'pino';
import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { workerStatusSchema } from '@manaboard/contract/admin';
import { xUsageStatus } from '../../integrations/x/x-usage-status';
import type { JobName } from '../../lib/job-types';
import { Worker } from '../../jobs/worker';
import { workerSchedule } from '../../jobs/worker-schedule';
import { X_JOBS } from '../../integrations/network-jobs';
import { startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { requestJobRun, setWorkerPaused, workerStatus } from './worker-control.service';

const START = Date.parse('2026-11-20T12:00:00Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

describe.each(testDatabaseKinds())('worker control (%s)', (kind) => {
  let h: ManaHarness | undefined;
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.stop();
    await h?.close();
    h = worker = undefined;
  });

  it('a scheduled worker obeys pause, resume and run-now stored in the database', async () => {
    const world = new World(START);
    world.createPost(world.createUser({ username: 'ann' }).id, '#ManaBoard hello', START - 60_000);
    h = await startManaHarness(kind, world);
    const db = h.database.db;
    const runs: JobName[] = [];
    worker = new Worker(
      { db, network: h.network, clock: world.clock.asClientClock(), log: pino({ level: 'silent' }) },
      {
        databaseKind: h.database.kind,
        intervalSeconds: 1,
        controlPollMs: 100,
        onRun: ({ job }) => runs.push(job),
      },
    );
    await worker.start();
    expect(worker.isLeader).toBe(true);
    await until(() => runs.includes('totals'));

    await setWorkerPaused(db, { paused: true, actor: 'op:zoe', now: new Date(START) });
    await sleep(2_500); // a run already under way may finish
    const atPause = runs.length;
    await sleep(3_000);
    expect(runs.length).toBe(atPause);

    // Run-now while paused: exactly that job runs, once, and the request records that it ended well.
    const request = await requestJobRun(db, { job: 'settle', actor: 'op:zoe', now: new Date(START) });
    await until(async () => (await workerStatus(deps())).runRequests.some((r) => r.finishedAt !== null));
    expect(runs.slice(atPause)).toEqual(['settle']);
    await sleep(1_500);
    expect(runs.slice(atPause)).toEqual(['settle']);

    const paused = workerStatusSchema.parse(await workerStatus(deps()));
    expect(paused).toMatchObject({ paused: true, pausedBy: 'op:zoe' });
    expect(paused.runRequests[0]).toMatchObject({ id: request.id, job: 'settle', error: null });
    const totals = paused.jobs.find((j) => j.job === 'totals');
    expect(totals?.lastDurationMs).toBeGreaterThanOrEqual(0);
    expect(totals?.lastRunAt).not.toBeNull();
    expect(Object.keys(totals?.items ?? {}).length).toBeGreaterThan(0);
    expect(paused.jobs.map((j) => j.job)).not.toContain('leaderboard');
    // Every job of the schedule, run yet or not; no next run while paused.
    expect(paused.jobs.map((j) => j.job)).toEqual([...X_JOBS]);
    expect(paused.jobs.map((j) => j.nextRunAt)).toEqual(X_JOBS.map(() => null));
    expect(paused.jobs.every((j) => j.schedule === 'every 1 s')).toBe(true);

    await setWorkerPaused(db, { paused: false, actor: 'op:zoe', now: new Date(START) });
    await until(() => runs.length > atPause + 2);
    const before = world.clock.now();
    const resumed = await workerStatus(deps());
    const after = world.clock.now();
    expect(resumed.paused).toBe(false);
    // Due again within the interval (1 s) on the worker's clock (the simulated one here), never in the past.
    for (const job of resumed.jobs) {
      const next = Date.parse(job.nextRunAt ?? '');
      expect(next).toBeGreaterThan(before);
      expect(next).toBeLessThanOrEqual(after + 1_000);
    }

    const audit = await db.selectFrom('audit_log').select(['action', 'details']).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['worker.pause', 'worker.run-now', 'worker.resume']);
    expect(audit[0]?.details).toMatchObject({ before: { paused: false }, after: { paused: true } });

    function deps() {
      return {
        db,
        now: () => world.clock.now(),
        schedule: workerSchedule({ jobs: X_JOBS, intervalSeconds: 1 }),
        usage: (now: Date) => xUsageStatus(db, now, { monthlyReadCap: 1_000, pricePerReadUsd: 0.005 }),
      };
    }
  }, 180_000);

  it('reports X usage per endpoint, today and this month, against the cap with the cost', async () => {
    const world = new World(START);
    h = await startManaHarness(kind, world);
    const db = h.database.db;
    await db
      .insertInto('x_api_usage')
      .values([
        {
          day: '2026-11-20',
          endpoint: 'search/recent',
          calls: 3,
          reads: 250,
          failures: 1,
          updated_at: new Date(START),
        },
        {
          day: '2026-11-02',
          endpoint: 'search/recent',
          calls: 2,
          reads: 150,
          failures: 0,
          updated_at: new Date(START),
        },
        {
          day: '2026-11-20',
          endpoint: 'tweets',
          calls: 1,
          reads: 100,
          failures: 0,
          updated_at: new Date(START),
        },
        {
          day: '2026-10-31',
          endpoint: 'tweets',
          calls: 9,
          reads: 900,
          failures: 0,
          updated_at: new Date(START),
        },
      ])
      .execute();
    const usage = await xUsageStatus(db, new Date(START), { monthlyReadCap: 10_000, pricePerReadUsd: 0.005 });
    expect(usage).toEqual({
      kind: 'calls',
      network: 'x',
      endpoints: [
        {
          endpoint: 'search/recent',
          today: { calls: 3, reads: 250, failures: 1 },
          month: { calls: 5, reads: 400, failures: 1 },
        },
        {
          endpoint: 'tweets',
          today: { calls: 1, reads: 100, failures: 0 },
          month: { calls: 1, reads: 100, failures: 0 },
        },
      ],
      monthReads: 500,
      monthlyReadCap: 10_000,
      pricePerReadUsd: 0.005,
      monthCostUsd: 2.5,
      todayCostUsd: 1.75,
    });
  }, 120_000);
});
