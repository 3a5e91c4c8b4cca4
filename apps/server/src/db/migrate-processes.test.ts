import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv } from '../config/test-env';
import { createScratchSchema, withClient, type ScratchSchema } from '../test/postgres-schema';
import { runNpm, type RunningProcess } from '../test/processes';
import { MIGRATION_LOCK_KEY } from './migrate';
import { migrations } from './migrations/index';

const PROCESSES = 3;

/** Server processes of this test (tagged by application_name) waiting for the migration lock. */
async function waitingForLock(url: string, applicationName: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ waiting: string }>(
      `select count(*) as waiting from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.objid = $1 and not l.granted and a.application_name = $2`,
      [MIGRATION_LOCK_KEY, applicationName],
    );
    return Number(rows[0]?.waiting ?? 0);
  });
}

describe.skipIf(!testEnv.databaseUrl)(
  'migrations from several processes at once on PostgreSQL (TEST_DATABASE_URL)',
  () => {
    let schema: ScratchSchema | undefined;
    const started: RunningProcess[] = [];
    afterEach(async () => {
      for (const p of started.splice(0)) p.signal('SIGKILL');
      await schema?.drop();
    });

    it(
      'every process waits for the lock, exactly one applies the migrations, the others find none left',
      { timeout: 120_000 },
      async () => {
        const serverUrl = testEnv.databaseUrl ?? '';
        const applicationName = `mb-migrate-${randomBytes(4).toString('hex')}`;
        schema = await createScratchSchema(serverUrl, applicationName);
        const url = schema.url;
        // Hold the lock while the processes start, so they all reach it before any of them migrates: the race
        // is real, not left to how fast each process happens to start.
        await withClient(serverUrl, async (holder) => {
          await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          for (let i = 0; i < PROCESSES; i++) {
            started.push(runNpm(['db:migrate'], { DATABASE_URL: url, LOG_LEVEL: 'warn' }));
          }
          const deadline = Date.now() + 60_000;
          while ((await waitingForLock(serverUrl, applicationName)) < PROCESSES) {
            if (Date.now() > deadline) throw new Error('the processes never queued on the migration lock');
            await new Promise((r) => setTimeout(r, 100));
          }
          await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        });

        const codes = await Promise.all(started.map((p) => p.exited));
        const outputs = started.map((p) => p.output());
        expect(codes, outputs.join('\n---\n')).toEqual(Array(PROCESSES).fill(0));
        const names = Object.keys(migrations);
        const appliers = outputs.filter((o) => o.includes(`Applied ${names.join(', ')} to PostgreSQL`));
        const idle = outputs.filter((o) => o.includes('Already up to date: PostgreSQL'));
        expect([appliers.length, idle.length]).toEqual([1, PROCESSES - 1]);

        const recorded = await withClient(url, async (client) => {
          const { rows } = await client.query<{ name: string }>(
            'select name from kysely_migration order by name',
          );
          return rows.map((r) => r.name);
        });
        expect(recorded).toEqual(names);
      },
    );
  },
);
