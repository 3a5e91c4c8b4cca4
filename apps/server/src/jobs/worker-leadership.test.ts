import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import type { SocialNetwork } from '../social/social-network';
import { busyWorld, counted, snapshot } from '../test/busy-world';
import { startManaHarness } from '../test/mana-harness';
import { openTestDatabase } from '../test/test-database';
import { systemClock } from '../lib/clock';
import { testEnv } from '../config/test-env';
import { Worker } from './worker';

// Leadership is a PostgreSQL advisory lock (PGlite is one process: its worker always leads). skipIf, not an each
// over the kinds filtered to PostgreSQL: without TEST_DATABASE_URL that registered nothing, and Vitest failed the file.
describe.skipIf(!testEnv.databaseUrl)('worker leadership on PostgreSQL (TEST_DATABASE_URL)', () => {
  const kind = 'postgres';
  it('two scheduled workers against one PostgreSQL: only the leader reads the network; everything counts once', async () => {
    const steady = await startManaHarness(kind, busyWorld());
    await steady.worker.runCycle();
    const once = await snapshot(steady);
    await steady.close();

    const world = busyWorld();
    const h = await startManaHarness(kind, world);
    const log = pino({ level: 'silent' });
    const clock = world.clock.asClientClock();
    const everySecond = '* * * * * *';
    const schedule = {
      search: everySecond,
      refresh: everySecond,
      interactions: everySecond,
      settle: everySecond,
      totals: everySecond,
    };
    const ports = [counted(h.network), counted(h.network)];
    const workers = ports.map(
      (port) =>
        new Worker(
          { db: h.database.db, network: port.network, clock, log },
          { schedule, databaseKind: kind },
        ),
    );
    try {
      for (const worker of workers) await worker.start();
      expect(workers.map((w) => w.isLeader)).toEqual([true, false]);
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const board = manaResponseSchema.parse((await h.get('/api/mana?limit=100')).body).data;
        if (board.total === 40 && (ports[0]?.calls() ?? 0) >= 6) break;
      }
      for (const worker of workers) await worker.stop();
      expect(ports.map((p) => p.calls() > 0)).toEqual([true, false]);
      expect(await snapshot(h)).toEqual(once);
    } finally {
      for (const worker of workers) await worker.stop();
      await h.close();
    }
  }, 60_000);

  it('two workers against one PostgreSQL: one leader; the other takes over when it stops', async () => {
    const database = await openTestDatabase(kind);
    const log = pino({ level: 'silent' });
    const network = {} as SocialNetwork; // never called: no job is scheduled within this test
    const never = '0 0 1 1 *';
    const schedule = { search: never, refresh: never, interactions: never, settle: never, totals: never };
    const first = new Worker(
      { db: database.db, network, clock: systemClock, log },
      { schedule, databaseKind: kind },
    );
    const second = new Worker(
      { db: database.db, network, clock: systemClock, log },
      { schedule, databaseKind: kind },
    );
    try {
      await first.start();
      await second.start();
      expect([first.isLeader, second.isLeader]).toEqual([true, false]);
      await first.stop();
      await second.stop();
      await second.start();
      expect(second.isLeader).toBe(true);
    } finally {
      await first.stop();
      await second.stop();
      await database.close();
    }
  });
});
