import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../config/test-env';
import { dropSchemasLocked, holdingSchemaDropLock } from './schema-drop-lock';

/** Resolves once `ms` have passed. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test's own key: other test files drop schemas under the real one meanwhile. */
const key = 0x7e570000 + Math.floor(Math.random() * 0xffff);

describe.skipIf(!testEnv.databaseUrl)('the schema drop lock (TEST_DATABASE_URL)', () => {
  const url = testEnv.databaseUrl ?? '';
  const clients: pg.Client[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.push(client);
    return client;
  };
  let a: pg.Client;
  let b: pg.Client;
  let c: pg.Client;
  beforeAll(async () => {
    [a, b, c] = await Promise.all([connect(), connect(), connect()]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
  });

  it('lets starts share it, makes a drop wait for every start under way, and a start wait for a drop under way', async () => {
    const schema = `mb_lock_${randomBytes(6).toString('hex')}`;
    await c.query(`create schema ${schema}`);
    const order: string[] = [];
    let releaseA!: () => void;
    let releaseB!: () => void;
    const holdA = holdingSchemaDropLock(
      a,
      'shared',
      async () => {
        order.push('a starts');
        await new Promise<void>((resolve) => (releaseA = resolve));
        order.push('a done');
      },
      key,
    );
    await pause(100);
    // A second start does not wait for the first.
    const holdB = holdingSchemaDropLock(
      b,
      'shared',
      async () => {
        order.push('b starts');
        await new Promise<void>((resolve) => (releaseB = resolve));
        order.push('b done');
      },
      key,
    );
    await expect.poll(() => order).toContain('b starts');
    const drop = dropSchemasLocked(c, [schema], key).then(() => order.push('dropped'));
    await pause(300);
    const present = async () =>
      (await a.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount;
    expect(order).not.toContain('dropped');
    expect(await present()).toBe(1);
    releaseA();
    await holdA;
    await pause(200);
    expect(order).not.toContain('dropped');
    releaseB();
    await holdB;
    await drop;
    expect(order).toEqual(['a starts', 'b starts', 'a done', 'b done', 'dropped']);
    expect(await present()).toBe(0);

    // A drop under way holds a start back until it is done.
    const other = `mb_lock_${randomBytes(6).toString('hex')}`;
    await c.query(`create schema ${other}`);
    const seen: string[] = [];
    let releaseDrop!: () => void;
    const slowDrop = holdingSchemaDropLock(
      c,
      'exclusive',
      async () => {
        seen.push('drop starts');
        await new Promise<void>((resolve) => (releaseDrop = resolve));
        await c.query(`drop schema ${other}`);
        seen.push('dropped');
      },
      key,
    );
    await expect.poll(() => seen).toContain('drop starts');
    const start = holdingSchemaDropLock(
      a,
      'shared',
      async () => {
        seen.push('start');
      },
      key,
    );
    await pause(300);
    expect(seen).toEqual(['drop starts']);
    releaseDrop();
    await Promise.all([slowDrop, start]);
    expect(seen).toEqual(['drop starts', 'dropped', 'start']);
  });

  it('releases the lock when the work fails', async () => {
    await expect(
      holdingSchemaDropLock(
        a,
        'shared',
        async () => {
          throw new Error('the start failed');
        },
        key,
      ),
    ).rejects.toThrow('the start failed');
    // Exclusive from another session: only possible once a's shared hold is gone.
    const quick = await Promise.race([
      dropSchemasLocked(b, [`mb_lock_${randomBytes(6).toString('hex')}`], key).then(() => 'dropped'),
      pause(5_000).then(() => 'still waiting'),
    ]);
    expect(quick).toBe('dropped');
  });
});
