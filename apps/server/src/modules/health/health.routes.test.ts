import { describe, expect, it } from 'vitest';
import { recordRun } from '../mana/ingest-state.repository';
import { writeProgress } from '../stream-progress/stream-progress.repository';
import { checkReadiness } from './readiness.service';
import { buildTestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';

const MINUTE = 60_000;

describe.each(testDatabaseKinds())('health on %s', (kind) => {
  it('reports the process and the database, and says when the database is gone', async () => {
    const t = await buildTestApp(kind);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok' });
      await t.database.close();
      const gone = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({ status: 'unavailable', reason: 'database' });
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
  });

  it('fails readiness when the worker leader has not finished a job for longer than allowed', async () => {
    const t = await buildTestApp(kind, { READY_WORKER_MAX_AGE_SECONDS: '300' });
    const run = (job: string, minutesAgo: number, error: string | null = null) => {
      const at = new Date(Date.now() - minutesAgo * MINUTE);
      return recordRun(t.database.db, job, {
        startedAt: at,
        finishedAt: at,
        error,
        calls: 1,
        nextRunAt: null,
        rateLimitResetAt: null,
      });
    };
    const readyz = async () => {
      const response = await t.app.inject({ url: '/readyz' });
      return [response.statusCode, response.json()];
    };
    try {
      // No job ever ran (a fresh install, a worker still starting): not held against readiness.
      expect(await readyz()).toEqual([200, { status: 'ok' }]);
      await run('search', 12);
      await run('totals', 9);
      expect(await readyz()).toEqual([503, { status: 'unavailable', reason: 'worker' }]);
      // A failed run still shows the leader is alive (its errors are in the metrics and the job state).
      await run('search', 1, 'X answered 503');
      expect(await readyz()).toEqual([200, { status: 'ok' }]);
      // READY_WORKER_MAX_AGE_SECONDS=0: only the database counts.
      await run('search', 60);
      await run('totals', 60);
      expect(await readyz()).toEqual([503, { status: 'unavailable', reason: 'worker' }]);
      const databaseOnly = await checkReadiness({
        db: t.database.db,
        ping: t.database.ping,
        workerMaxAgeMs: 0,
      });
      expect(databaseOnly).toEqual({ ready: true });
      // This process's own worker, when it has run a job, is trusted over the table.
      const local = await checkReadiness({
        db: t.database.db,
        ping: t.database.ping,
        workerMaxAgeMs: 300_000,
        localJobRunAt: () => Date.now() - 1000,
      });
      expect(local).toEqual({ ready: true });
    } finally {
      await t.close();
    }
  });

  it('answers degraded, still 200, with the reason while the event stream lags more than the bound', async () => {
    const t = await buildTestApp(kind, { READY_STREAM_MAX_LAG_SECONDS: '60' });
    const progress = (lagSeconds: number) =>
      writeProgress(t.database.db, {
        source: 'bluesky',
        reported_at: new Date(),
        cursor_time: new Date(Date.now() - lagSeconds * 1000),
        seen_per_second: 2_000,
        stored_per_second: 40,
        replay_window_seconds: 86_400,
      });
    const readyz = async () => {
      const response = await t.app.inject({ url: '/readyz' });
      return [response.statusCode, response.json()];
    };
    try {
      // No stream ever reported (a network read by polling, a worker still starting): nothing to judge.
      expect(await readyz()).toEqual([200, { status: 'ok' }]);
      await progress(10);
      expect(await readyz()).toEqual([200, { status: 'ok' }]);
      await progress(300);
      expect(await readyz()).toEqual([
        200,
        {
          status: 'degraded',
          reason: 'stream-lag',
          detail: 'the event stream is 300 s behind the network (READY_STREAM_MAX_LAG_SECONDS=60)',
        },
      ]);
      await progress(5);
      expect(await readyz()).toEqual([200, { status: 'ok' }]);
    } finally {
      await t.close();
    }
  });
});
