import { afterEach, describe, expect, it } from 'vitest';
import { adminWorkerResponseSchema, type NetworkUsage } from '@manaboard/contract/admin';
import type { JobLog } from '../../../jobs/job';
import { StreamProgressReporter } from '../../../jobs/stream-progress';
import { adminRequest } from '../../../test/admin-flow';
import { bskyAdmin } from '../../../test/bluesky-admin';
import { buildTestApp, type TestApp } from '../../../test/test-app';
import { testDatabaseKinds } from '../../../test/test-database';
import { writeProgress } from '../../stream-progress/stream-progress.repository';

const TENTH = 6_000;
const quiet = () => undefined;
const log = { info: quiet, warn: quiet, error: quiet, debug: quiet } as unknown as JobLog;

describe.each(testDatabaseKinds())('the console’s stream usage on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function usageOf(app: TestApp): Promise<Extract<NetworkUsage, { kind: 'stream' }>> {
    const admin = await bskyAdmin(app, 'ops.test');
    const response = await adminRequest(app, admin, 'GET', '/api/admin/worker');
    expect(response.statusCode, response.body).toBe(200);
    const usage = adminWorkerResponseSchema.parse(response.json()).data.usage;
    if (usage.kind !== 'stream') throw new Error(`expected a stream's usage, got ${usage.kind}`);
    return usage;
  }

  it('gives the stored events per tenth of a minute and the time left to catch up from the leader’s row', async () => {
    const app = await buildTestApp(kind, {
      SOCIAL_NETWORK: 'bluesky',
      ADMIN_ACCOUNTS: 'ops.test',
      PUBLIC_ORIGIN: 'http://127.0.0.1:1',
    });
    t = app;
    // Before the leader reports anything: no tenth, nothing known of catching up.
    const before = await usageOf(app);
    expect(before).toMatchObject({ storedPerTenth: [], catchUp: { state: 'unknown', seconds: null } });

    // The leading worker's last minute, ending on a tenth's boundary just past: ten minutes behind at the start,
    // its cursor advancing 3 s of the network's time each second, 600 events stored a second.
    const end = Math.floor(Date.now() / TENTH) * TENTH;
    const clock = { now: end - 60_000 };
    const reporter = new StreamProgressReporter({
      db: app.database.db,
      log,
      source: 'bluesky',
      replayWindowMs: 72 * 3_600_000,
      maxLagSeconds: 120,
      now: () => clock.now,
    });
    for (let i = 1; i <= 60; i++) {
      clock.now += 1_000;
      const cursorTime = new Date(clock.now - (600 - 2 * i) * 1000);
      reporter.report({ at: new Date(clock.now), seen: 2_000, stored: 600, cursorTime });
    }
    await reporter.persist();

    const usage = await usageOf(app);
    expect(usage.storedPerTenth).toHaveLength(10);
    expect(usage.storedPerTenth[0]?.at).toBe(new Date(end - 60_000).toISOString());
    // The first tenth holds the reports of its seconds 1 to 5 (the 6th is the next tenth's first).
    expect(usage.storedPerTenth.map((t) => t.perSecond)).toEqual([500, ...Array(9).fill(600)]);
    // Lag 480 s as reported, plus however long this test took since the boundary; gained 2 s a second.
    expect(usage.lagSeconds).toBeGreaterThanOrEqual(480);
    expect(usage.catchUp).toEqual({
      state: 'catching-up',
      seconds: Math.ceil((usage.lagSeconds ?? 0) / 2),
      gain: 3,
    });

    // A row whose cursor gains less than the wall clock: not catching up; one within the bound: caught up.
    const row = {
      source: 'bluesky',
      seen_per_second: 2_000,
      stored_per_second: 600,
      replay_window_seconds: 72 * 3_600,
      stored_tenths: usage.storedPerTenth,
    };
    await writeProgress(app.database.db, {
      ...row,
      reported_at: new Date(),
      cursor_time: new Date(Date.now() - 900_000),
      cursor_gain: 0.8,
    });
    expect((await usageOf(app)).catchUp).toEqual({ state: 'not-catching-up', seconds: null, gain: 0.8 });
    await writeProgress(app.database.db, {
      ...row,
      reported_at: new Date(),
      cursor_time: new Date(Date.now() - 2_000),
      cursor_gain: 1,
    });
    expect((await usageOf(app)).catchUp).toEqual({ state: 'caught-up', seconds: 0, gain: 1 });
  }, 120_000);
});
