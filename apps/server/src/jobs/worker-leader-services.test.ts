import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database';
import { Worker } from './worker';

describe('the worker runs a leader service only while it leads', () => {
  it('starts it with leadership and stops it when stopping', async () => {
    const database = await openTestDatabase('pglite');
    const events: string[] = [];
    const service = {
      name: 'probe',
      start: async () => void events.push('start'),
      stop: async () => void events.push('stop'),
    };
    const network = {} as never;
    const worker = new Worker(
      {
        db: database.db,
        network,
        clock: { now: Date.now, sleep: async () => undefined },
        log: pino({ level: 'silent' }),
      },
      { databaseKind: database.kind, jobs: ['totals'], leaderServices: [service] },
    );
    try {
      await worker.start();
      expect(worker.isLeader).toBe(true);
      expect(events).toEqual(['start']);
      // A job the network does not use is not run.
      expect(await worker.runJob('search')).toBeNull();
      await worker.stop();
      expect(events).toEqual(['start', 'stop']);
    } finally {
      await worker.stop();
      await database.close();
    }
  });
});
