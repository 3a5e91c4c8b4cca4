import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { World } from '@manaboard/x-sim';
import { describe, expect, it } from 'vitest';
import { testEnv } from '../config/test-env';
import { systemClock } from '../integrations/x/clock';
import { createXClient } from '../integrations/x/x-client';
import { startSimulatedX } from '../test/simulated-x';
import type { DatabaseHandle } from '../db/database';
import { openTestDatabase } from '../test/test-database';
import { LEADER_LOCK_CLASS, Leadership } from './leader';
import { Worker } from './worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < ms) await sleep(25);
}

/** Runs one statement as an outsider (the test's own admin connection). */
async function admin<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const schemaOf = async (database: DatabaseHandle) =>
  (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema ??
  '';

// The leader lock lives on a PostgreSQL session; killing that session is a PostgreSQL test.
describe.skipIf(!testEnv.databaseUrl)('worker leader whose lock connection dies (TEST_DATABASE_URL)', () => {
  it('gives leadership up, another worker takes over, and it leads again when that one stops', async () => {
    const url = testEnv.databaseUrl ?? '';
    const sim = await startSimulatedX(new World(Date.now()), { rateLimitScale: Infinity });
    const database = await openTestDatabase('postgres');
    const x = createXClient(sim.config, database.db, { clock: systemClock });
    const errors: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
    // The first retries every 5 s, the second every second: the second is the one that takes over.
    const make = (intervalSeconds: number) =>
      new Worker(
        { db: database.db, network: x.network, clock: systemClock, log },
        { databaseKind: 'postgres', intervalSeconds, leaderCheckSeconds: 0.2 },
      );
    const first = make(5);
    const second = make(1);
    try {
      await first.start();
      await second.start();
      expect([first.isLeader, second.isLeader]).toEqual([true, false]);

      const holders = await admin<{ pid: number }>(
        url,
        `select pid from pg_locks where locktype = 'advisory' and classid = $1 and objid = hashtext($2)::oid
           and objsubid = 2 and granted`,
        [LEADER_LOCK_CLASS, await schemaOf(database)],
      );
      expect(holders).toHaveLength(1);
      await admin(url, 'select pg_terminate_backend($1)', [holders[0]?.pid]);

      await waitFor(() => !first.isLeader, 5_000);
      expect(first.isLeader).toBe(false);
      expect(errors.join('')).toMatch(/the connection holding the leader lock died/);
      // The standing-by worker's own retry (every interval) finds the lock free.
      await waitFor(() => second.isLeader, 5_000);
      expect([first.isLeader, second.isLeader]).toEqual([false, true]);

      await second.stop();
      await waitFor(() => first.isLeader, 10_000);
      expect([first.isLeader, second.isLeader]).toEqual([true, false]);
    } finally {
      await first.stop();
      await second.stop();
      await database.close();
      await sim.close();
    }
  }, 60_000);
});

describe.skipIf(!testEnv.databaseUrl)(
  'worker leaders of two schemas in one database (TEST_DATABASE_URL)',
  () => {
    it('each lead their own schema, and a second worker of one of them stands by', async () => {
      const [one, two] = await Promise.all([openTestDatabase('postgres'), openTestDatabase('postgres')]);
      // The leadership each worker of a schema takes (Worker.start), three workers in all.
      const leaderships = [new Leadership(one.db), new Leadership(two.db), new Leadership(one.db)];
      try {
        const led = [];
        for (const leadership of leaderships) led.push(await leadership.tryAcquire());
        // Advisory locks belong to the whole database: with one key for every schema, the second schema's worker
        // stood by behind the first schema's leader and its jobs never ran.
        expect(led).toEqual([true, true, false]);
        await leaderships[0]?.relinquish();
        expect(await leaderships[2]?.tryAcquire()).toBe(true);
      } finally {
        for (const leadership of leaderships) await leadership.relinquish();
        await Promise.all([one.close(), two.close()]);
      }
    }, 60_000);
  },
);
