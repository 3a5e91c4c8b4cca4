import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';

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
      expect(gone.json()).toEqual({ status: 'unavailable' });
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
  });
});
