import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskSpaceError, PGLITE_FREE_SPACE_RESERVE } from '../db/pglite-disk-guard';
import { openTestDatabase } from '../test/test-database';
import type { DatabaseHandle } from '../db/database';
import { registerErrorHandler } from './error-handler';

describe('a write refused because the embedded database is out of disk space', () => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('answers 503 with Retry-After and a message that names no path, never a 500', async () => {
    let free = 0;
    database = await openTestDatabase('pglite', { diskGuard: { freeBytes: () => free } });
    const db = database.db;
    const app = Fastify();
    registerErrorHandler(app);
    app.post('/write', async () => {
      await db.insertInto('server_secrets').values({ name: 'disk-full-probe', value: 'x' }).execute();
      return { success: true };
    });
    const refused = await app.inject({ method: 'POST', url: '/write' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual({
      success: false,
      error: 'The server is out of disk space, so nothing was saved. Please try again later.',
    });
    expect(refused.body).not.toContain('memory');
    // Space returns: the same request is saved.
    free = PGLITE_FREE_SPACE_RESERVE * 2;
    const saved = await app.inject({ method: 'POST', url: '/write' });
    expect(saved.statusCode, saved.body).toBe(200);
    await app.close();
    expect(new DiskSpaceError('/data', 0, 1).message).toContain('/data');
  });
});
