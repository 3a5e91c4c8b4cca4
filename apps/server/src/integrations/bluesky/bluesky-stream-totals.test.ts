import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStates, saveCursor } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import { atprotoNetworkSkipReason } from '../../test/atproto-network';
import { startBlueskyWorld, type BlueskyWorld } from '../../test/bluesky-world';
import { createWorkerRuntime } from '../../composition/worker-runtime';
import { setWorkerPaused } from '../../modules/worker-control/worker-control.service';

const reason = atprotoNetworkSkipReason();

/** On a stream, a like reaches the board in seconds: the worker runs totals after a stored batch. */
describe.skipIf(reason)('totals after the Bluesky stream stores a batch', () => {
  let w: BlueskyWorld;

  beforeAll(async () => {
    w = await startBlueskyWorld(['ann', 'eve', 'fay']);
  }, 120_000);

  afterAll(async () => {
    await w?.close();
  }, 60_000);

  it('a streamed like reaches /api/mana long before the next scheduled totals run, and not while the worker is paused', async () => {
    w.time.offset = 0;
    // Each job runs once at start, then only an hour later: any later totals run is the stream's.
    const config = w.workerConfig({ WORKER_INTERVAL_SECONDS: '3600' });
    await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date());
    const runtime = await createWorkerRuntime({ config, database: w.database, log: w.log });
    const totalsRuns = async () => {
      const at = (await allStates(w.database.db)).find((s) => s.job === 'totals')?.last_success_at;
      return at ? new Date(at).getTime() : 0;
    };
    await runtime.start();
    try {
      await expect.poll(totalsRuns, { timeout: 30_000 }).toBeGreaterThan(0);
      const post = await w.post('ann', 'a post the stream counts #ManaBoard');
      const stored = async () =>
        (await w.database.db.selectFrom('posts').select('id').where('id', '=', post.uriStr).execute()).length;
      await expect.poll(stored, { timeout: 30_000 }).toBe(1);
      await w.like('eve', post);
      await expect
        .poll(async () => (await w.board()).get('ann') ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(0);
      const mana = (await w.board()).get('ann') ?? 0;

      // Paused by the operator: the stream still stores, but no totals run until the worker resumes.
      await setWorkerPaused(w.database.db, { paused: true, actor: 'test', now: new Date() });
      const before = await totalsRuns();
      await w.like('fay', post);
      const likes = async () =>
        (
          await w.database.db
            .selectFrom('stream_records')
            .select('id')
            .where('subject_id', '=', post.uriStr)
            .execute()
        ).length;
      await expect.poll(likes, { timeout: 30_000 }).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await totalsRuns()).toBe(before);
      expect((await w.board()).get('ann')).toBe(mana);
      await setWorkerPaused(w.database.db, { paused: false, actor: 'test', now: new Date() });
      await w.like('eve', await w.post('fay', 'another #ManaBoard post'));
      await expect
        .poll(async () => (await w.board()).get('ann') ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(mana);
    } finally {
      await runtime.stop();
    }
  }, 120_000);
});
