import { describe, expect, it } from 'vitest';
import { recordRun } from '../mana/ingest-state.repository';
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
});
