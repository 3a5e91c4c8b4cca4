import { afterEach, describe, expect, it } from 'vitest';
import { adminWorkerResponseSchema, type WorkerStatus } from '@manaboard/contract/admin';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../../test/admin-flow';
import { bskyAdmin } from '../../../test/bluesky-admin';
import { startLinkingTest } from '../../../test/linking-flow';
import { buildTestApp, type TestApp } from '../../../test/test-app';
import { testDatabaseKinds } from '../../../test/test-database';
import { recordRun, saveCursor } from '../../mana/ingest-state.repository';

const MINUTE = 60_000;

type Job = WorkerStatus['jobs'][number];

/** The job list as the console reads it. */
async function status(t: TestApp, admin: AdminBrowser) {
  const response = await adminRequest(t, admin, 'GET', '/api/admin/worker');
  expect(response.statusCode, response.body).toBe(200);
  return adminWorkerResponseSchema.parse(response.json()).data;
}

async function pause(t: TestApp, admin: AdminBrowser, paused: boolean) {
  const response = await adminRequest(t, admin, 'POST', '/api/admin/worker/pause', { paused });
  expect(response.statusCode, response.body).toBe(200);
}

/** Rows a running installation has in ingest_state beside the jobs: none of them is a job of the schedule. */
async function storeNonJobRows(t: TestApp, at: Date) {
  const db = t.database.db;
  await saveCursor(db, 'demo', { anchor: 1 }, at);
  await saveCursor(db, 'stream', { seq: 42, time: at.toISOString() }, at);
  await saveCursor(db, 'leaderboard', {}, at);
}

/** A finished run as the worker records it, with the stored next run the old list showed (already past). */
async function recordFinishedRun(t: TestApp, job: string, at: Date) {
  await recordRun(t.database.db, job, {
    startedAt: at,
    finishedAt: new Date(at.getTime() + 1_000),
    error: null,
    calls: 2,
    nextRunAt: new Date(at.getTime() + MINUTE),
    rateLimitResetAt: null,
    durationMs: 1_000,
    items: { authors: 3 },
  });
}

/**
 * A time on the job's grid (UTC), after the moment the server computed it (between `from` and `to`) and no later
 * than one period after that.
 */
function expectOnGrid(
  iso: string | null,
  window: { from: number; to: number },
  grid: { periodMs: number; offsetMs: number },
) {
  expect(iso).not.toBeNull();
  const at = Date.parse(iso ?? '');
  expect(at).toBeGreaterThan(window.from);
  expect(at).toBeLessThanOrEqual(window.to + grid.periodMs);
  expect((at - grid.offsetMs) % grid.periodMs).toBe(0);
}

/** The default schedule as grids: search each minute, refresh and interactions each quarter hour, and so on. */
const grids: Record<string, { periodMs: number; offsetMs: number }> = {
  search: { periodMs: MINUTE, offsetMs: 0 },
  refresh: { periodMs: 15 * MINUTE, offsetMs: 0 },
  interactions: { periodMs: 15 * MINUTE, offsetMs: 0 },
  settle: { periodMs: 60 * MINUTE, offsetMs: 7 * MINUTE },
  totals: { periodMs: MINUTE, offsetMs: 20_000 },
  fairness: { periodMs: 60 * MINUTE, offsetMs: 41 * MINUTE },
  trace: { periodMs: 15 * MINUTE, offsetMs: 5 * MINUTE },
  ledger: { periodMs: 10 * MINUTE, offsetMs: 0 },
};

function expectScheduled(jobs: Job[], window: { from: number; to: number }) {
  for (const job of jobs) {
    const grid = grids[job.job];
    if (!grid) throw new Error(`${job.job} is no job of the schedule`);
    expectOnGrid(job.nextRunAt, window, grid);
  }
}

/** The status, and the wall-clock span in which the server answered it. */
async function timedStatus(t: TestApp, admin: AdminBrowser) {
  const from = Date.now();
  const data = await status(t, admin);
  return { data, window: { from, to: Date.now() } };
}

describe.each(testDatabaseKinds())('the console lists every job of the schedule (%s)', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('on X: all seven jobs right after start, none that is not a job, "paused" while paused, and due again after a resume', async () => {
    const x = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    t = x;
    const admin = await signedInAdmin(x, 'news_desk');
    x.world.clock.advance(3 * MINUTE + 30_000); // 12:03:30 UTC
    await storeNonJobRows(x, new Date(x.world.clock.now()));

    const fresh = await status(x, admin);
    expect(fresh.jobs.map((j) => j.job)).toEqual([
      'search',
      'refresh',
      'interactions',
      'settle',
      'totals',
      'fairness',
      'ledger',
    ]);
    // Computed from the schedule at 12:03:30, before any job ran.
    expect(Object.fromEntries(fresh.jobs.map((j) => [j.job, j.nextRunAt]))).toEqual({
      search: '2026-11-22T12:04:00.000Z',
      refresh: '2026-11-22T12:15:00.000Z',
      interactions: '2026-11-22T12:15:00.000Z',
      settle: '2026-11-22T12:07:00.000Z',
      totals: '2026-11-22T12:04:20.000Z',
      fairness: '2026-11-22T12:41:00.000Z',
      ledger: '2026-11-22T12:10:00.000Z',
    });
    expect(fresh.jobs.every((j) => j.lastRunAt === null && j.callsSpent === 0)).toBe(true);
    expect(fresh.jobs.find((j) => j.job === 'refresh')?.schedule).toBe('*/15 * * * *');

    const ranAt = new Date(x.world.clock.now());
    await recordFinishedRun(x, 'totals', ranAt);
    await pause(x, admin, true);
    const paused = await status(x, admin);
    expect(paused.paused).toBe(true);
    expect(paused.jobs.map((j) => j.nextRunAt)).toEqual(Array(7).fill(null));
    expect(paused.jobs.find((j) => j.job === 'totals')).toMatchObject({
      lastRunAt: ranAt.toISOString(),
      lastDurationMs: 1_000,
      items: { authors: 3 },
      callsSpent: 2,
    });

    // 25 minutes paused (the console session stays open): the next run the worker stored before the pause is
    // long past; the list never shows it.
    x.world.clock.advance(25 * MINUTE);
    await pause(x, admin, false);
    const resumed = await status(x, admin);
    expect(resumed.jobs).toHaveLength(7);
    const now = x.world.clock.now();
    expectScheduled(resumed.jobs, { from: now, to: now });
    expect(resumed.jobs.find((j) => j.job === 'totals')?.lastRunAt).toBe(ranAt.toISOString());
  }, 120_000);

  it('on Bluesky (no stream needed: the list is the schedule): refresh, settle, totals, fairness, trace and ledger, paused, resumed', async () => {
    const bsky = await buildTestApp(kind, {
      SOCIAL_NETWORK: 'bluesky',
      ADMIN_ACCOUNTS: 'ops.test',
      PUBLIC_ORIGIN: 'http://127.0.0.1:1',
    });
    t = bsky;
    const admin = await bskyAdmin(bsky, 'ops.test');
    const started = Date.now();
    await storeNonJobRows(bsky, new Date(started));
    await recordFinishedRun(bsky, 'settle', new Date(started - 3 * 60 * MINUTE));

    const { data: fresh, window } = await timedStatus(bsky, admin);
    expect(fresh.usage.kind).toBe('stream');
    expect(fresh.jobs.map((j) => j.job)).toEqual([
      'refresh',
      'settle',
      'totals',
      'fairness',
      'trace',
      'ledger',
    ]);
    expectScheduled(fresh.jobs, window);
    expect(fresh.jobs.find((j) => j.job === 'settle')?.lastRunAt).toBe(
      new Date(started - 3 * 60 * MINUTE).toISOString(),
    );

    await pause(bsky, admin, true);
    expect((await status(bsky, admin)).jobs.map((j) => j.nextRunAt)).toEqual(Array(6).fill(null));
    await pause(bsky, admin, false);
    const { data: resumed, window: later } = await timedStatus(bsky, admin);
    expect(resumed.jobs.map((j) => j.job)).toEqual([
      'refresh',
      'settle',
      'totals',
      'fairness',
      'trace',
      'ledger',
    ]);
    expectScheduled(resumed.jobs, later);
  }, 120_000);
});
