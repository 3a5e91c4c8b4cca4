import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testEnv } from '../config/test-env';
import { openDatabase } from './database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function terminate(url: string, pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < 10_000) await sleep(20);
}

// pg_terminate_backend needs a server: an unheard 'error' from pg would kill this test process (and vitest says so).
describe.skipIf(!testEnv.databaseUrl)('PostgreSQL connection loss (TEST_DATABASE_URL)', () => {
  it('reports a terminated checked-out or idle connection once, and the pool goes on', async () => {
    const url = testEnv.databaseUrl ?? '';
    const name = `mb_loss_${randomBytes(4).toString('hex')}`;
    const errors: Error[] = [];
    const database = await openDatabase({
      kind: 'postgres',
      url: `${url}${url.includes('?') ? '&' : '?'}application_name=${name}`,
      poolSize: 2,
      onConnectionError: (error) => errors.push(error),
    });
    try {
      await database.db.connection().execute(async (connection) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
        await terminate(url, rows[0]?.pid ?? 0);
        await waitFor(() => errors.length > 0);
        expect(errors).toHaveLength(1);
        await expect(sql`select 1`.execute(connection)).rejects.toThrow();
      });

      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      await terminate(url, rows[0]?.pid ?? 0);
      await waitFor(() => errors.length > 1);
      await sleep(100); // a second report of the same error (pool and client) would come now
      expect(errors).toHaveLength(2);
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/terminat/i),
        expect.stringMatching(/terminat/i),
      ]);

      expect(await database.ping()).toBe(true);
      const open = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity where application_name = ${name}`.execute(
        database.db,
      );
      expect(open.rows[0]?.n).toBe(1);
    } finally {
      await database.close();
    }
  });
});
