import pino from 'pino';
import { World } from '@manaboard/x-sim';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../integrations/x/clock';
import { createXClient } from '../integrations/x/x-client';
import { allStates } from '../modules/mana/ingest-state.repository';
import { startSimulatedX } from '../test/simulated-x';
import { openTestDatabase } from '../test/test-database';
import { testEnv } from '../config/test-env';
import type { JobName } from './job';
import { Worker } from './worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two leaders need two sessions: on PGlite a process has one, so this is a PostgreSQL test.
describe.skipIf(!testEnv.databaseUrl)(
  'worker on WORKER_INTERVAL_SECONDS, two workers on PostgreSQL (TEST_DATABASE_URL)',
  () => {
    const kind = 'postgres';
    it('runs every job each interval, and a standing-by worker takes over within one interval', async () => {
      const sim = await startSimulatedX(new World(Date.now()), { rateLimitScale: Infinity });
      const database = await openTestDatabase(kind);
      const x = createXClient(sim.config, database.db, { clock: systemClock });
      const log = pino({ level: 'silent' });
      const make = () =>
        new Worker(
          { db: database.db, network: x.network, clock: systemClock, log },
          { databaseKind: kind, intervalSeconds: 1 },
        );
      const first = make();
      const second = make();
      try {
        await first.start();
        await second.start();
        expect([first.isLeader, second.isLeader]).toEqual([true, false]);

        const jobs: JobName[] = ['search', 'refresh', 'interactions', 'settle', 'totals'];
        const ranAll = async () => {
          const states = await allStates(database.db);
          return jobs.every((job) => states.some((s) => s.job === job && s.last_success_at !== null));
        };
        const started = Date.now();
        while (!(await ranAll()) && Date.now() - started < 10_000) await sleep(50);
        expect(await ranAll()).toBe(true);

        // No second start() by hand: the standing-by worker's own retry (every interval) takes leadership.
        await first.stop();
        const stoppedAt = Date.now();
        while (!second.isLeader && Date.now() - stoppedAt < 5_000) await sleep(25);
        expect(second.isLeader).toBe(true);
        expect(Date.now() - stoppedAt).toBeLessThanOrEqual(1_500);
      } finally {
        await first.stop();
        await second.stop();
        await database.close();
        await sim.close();
      }
    });
  },
);
