import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readThreadHeaps } from '../lib/thread-heaps';
import { openDatabase, type DatabaseHandle } from './database';
import { pgliteExtensions } from './pglite-extensions';
import type { Database } from './schema';

// The embedded database on a thread of its own (issue 31): the same answers, errors and transactions as PGlite on
// the calling thread, and a statement that never holds the calling thread. Each case runs on both, side by side.
type Db = Kysely<Database>;

describe("the embedded database's own thread", () => {
  let root: string;
  let threaded: DatabaseHandle;
  let inline: DatabaseHandle;
  const both = () =>
    [
      ['thread', threaded],
      ['inline', inline],
    ] as const;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'manaboard-pglite-thread-'));
    [threaded, inline] = await Promise.all([
      openDatabase({ kind: 'pglite', dataDir: path.join(root, 'thread'), thread: true }),
      openDatabase({ kind: 'pglite', dataDir: path.join(root, 'inline') }),
    ]);
    for (const database of [threaded, inline]) {
      await sql`create table things (
        id int8 primary key,
        name text not null unique,
        at timestamptz,
        doc jsonb,
        bytes bytea,
        tags text[],
        amount numeric,
        flag boolean
      )`.execute(database.db);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([threaded?.close(), inline?.close()]);
    await fs.rm(root, { recursive: true, force: true });
  });

  it('says which one runs on its own thread', () => {
    expect(threaded.threaded).toBe(true);
    expect(inline.threaded).toBeUndefined();
  });

  it("shows the database thread's heap beside the serving thread's, PGlite's memory outside it", async () => {
    const heaps = await readThreadHeaps();
    const database = heaps.filter((h) => h.thread === 'database');
    // One thread here; the inline database has none.
    expect(database).toHaveLength(1);
    expect(database[0]?.usedBytes).toBeGreaterThan(1_000_000);
    // PGlite's WebAssembly memory (128 MB reserved) is external to the thread's heap.
    expect(database[0]?.externalBytes).toBeGreaterThan(64 * 1024 * 1024);
    expect(heaps[0]?.thread).toBe('serving');
  });

  it("lets go of PGlite's file bundle on either thread, and says so", () => {
    for (const [name, database] of both()) {
      const release = database.fileBundle;
      if (!release || 'skipped' in release) throw new Error(`${name}: ${JSON.stringify(release)}`);
      expect(release.dropped, name).toBeGreaterThan(20);
      expect(release.copied, name).toBeGreaterThan(500);
    }
  });

  it('answers every type as PGlite on the calling thread does', async () => {
    const row = {
      id: 9007199254740993n.toString(),
      name: 'a',
      at: new Date('2026-11-27T12:34:56.789Z'),
      doc: JSON.stringify({ nested: { list: [1, 'two', null] }, n: 1.5 }),
      bytes: new Uint8Array([0, 1, 254, 255]),
      tags: ['x', 'y z'],
      amount: '12345678901234567890.123',
      flag: true,
    };
    const answers = [];
    for (const [, database] of both()) {
      const db = database.db as unknown as Kysely<{ things: typeof row }>;
      const inserted = await db.insertInto('things').values(row).executeTakeFirst();
      expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
      await db
        .insertInto('things')
        .values({ ...row, id: '2', name: 'b', at: null as never, doc: null as never })
        .execute();
      answers.push(await db.selectFrom('things').selectAll().orderBy('id').execute());
    }
    const [fromThread, fromInline] = answers;
    expect(fromThread).toEqual(fromInline);
    expect(fromThread![1]!.at).toBeInstanceOf(Date);
    expect(fromThread![1]!.bytes).toBeInstanceOf(Uint8Array);
    expect(fromThread![1]!.doc).toEqual({ nested: { list: [1, 'two', null] }, n: 1.5 });
    expect(fromThread![0]!.doc).toBeNull();
  });

  it('commits a transaction that ends well and rolls back one that throws', async () => {
    for (const [, database] of both()) {
      const db: Db = database.db;
      await db.transaction().execute(async (tx) => {
        await sql`insert into things (id, name) values (10, 'kept')`.execute(tx);
      });
      await expect(
        db.transaction().execute(async (tx) => {
          await sql`insert into things (id, name) values (11, 'gone')`.execute(tx);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const names = await sql<{ name: string }>`select name from things where id in (10, 11)`.execute(db);
      expect(names.rows.map((r) => r.name)).toEqual(['kept']);
    }
  });

  it("gives PostgreSQL's errors with their fields, as on the calling thread", async () => {
    const errors = [];
    for (const [, database] of both()) {
      const failed = await sql`insert into things (id, name) values (12, 'kept')`.execute(database.db).then(
        () => null,
        (error: unknown) => error as Record<string, unknown> & Error,
      );
      expect(failed).toBeInstanceOf(Error);
      errors.push(failed!);
    }
    const [fromThread, fromInline] = errors;
    expect(fromThread!.message).toBe(fromInline!.message);
    expect(fromThread!.code).toBe('23505');
    for (const field of ['code', 'constraint', 'table', 'detail', 'severity'])
      expect(fromThread![field], field).toBe(fromInline![field]);
  });

  it('fails the commit of a transaction a statement aborted, as on the calling thread', async () => {
    const outcomes = [];
    for (const [, database] of both()) {
      const outcome = await database.db
        .transaction()
        .execute(async (tx) => {
          await sql`insert into things (id, name) values (20, 'first')`.execute(tx);
          await sql`select 1/0`.execute(tx).catch(() => undefined);
        })
        .then(
          () => 'committed',
          (error: Error) => `${error.name}: ${error.message}`,
        );
      const kept = await sql`select 1 from things where id = 20`.execute(database.db);
      outcomes.push({ outcome, kept: kept.rows.length });
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]!.outcome).not.toBe('committed');
    expect(outcomes[0]!.kept).toBe(0);
  });

  it('keeps statements in order around a transaction, as PGlite does', async () => {
    // A statement sent while a transaction is open waits for it: it sees what the transaction committed.
    for (const [, database] of both()) {
      let seen: number | undefined;
      await database.db.transaction().execute(async (tx) => {
        await sql`insert into things (id, name) values (30, 'in tx')`.execute(tx);
        void sql<{ n: string }>`select count(*) as n from things where id = 30`
          .execute(database.db)
          .then((r) => (seen = Number(r.rows[0]!.n)));
        await sql`update things set flag = false where id = 30`.execute(tx);
      });
      await sql`select 1`.execute(database.db);
      expect(seen).toBe(1);
    }
  });

  it('never holds the calling thread while a statement runs', async () => {
    // A timer due long before the statement ends: on the database's own thread it fires while the statement
    // runs; on the calling thread it can only fire once the statement is done.
    const settledAtTimer = [];
    for (const [, database] of both()) {
      let settled = false;
      const slow = sql`select pg_sleep(1)`.execute(database.db).then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      settledAtTimer.push(settled);
      await slow;
    }
    expect(settledAtTimer).toEqual([false, true]);
  });

  it('dumps its data directory, which PGlite loads with every row', async () => {
    const dump = await threaded.pglite!.dumpDataDir('gzip');
    const copy = await PGlite.create({ loadDataDir: dump, extensions: pgliteExtensions });
    try {
      const names = await copy.query<{ name: string }>('select name from things order by id');
      const expected = await sql<{ name: string }>`select name from things order by id`.execute(threaded.db);
      expect(names.rows).toEqual(expected.rows);
      expect(names.rows.length).toBeGreaterThan(2);
    } finally {
      await copy.close();
    }
  });

  it('is closed once, and then refuses statements with a clear error', async () => {
    const dir = path.join(root, 'closing');
    const database = await openDatabase({ kind: 'pglite', dataDir: dir, thread: true });
    await sql`create table kept (id int)`.execute(database.db);
    await sql`insert into kept values (1)`.execute(database.db);
    await database.close();
    await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
    // What was committed is on disk: the directory opens again with it.
    const again = await openDatabase({ kind: 'pglite', dataDir: dir, thread: true });
    try {
      const rows = await sql<{ id: number }>`select id from kept`.execute(again.db);
      expect(rows.rows).toEqual([{ id: 1 }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('refuses a parameter it cannot send, and answers the next statement', async () => {
    // A WeakMap is one thing structured clone refuses to copy.
    const notSendable = sql`select ${new WeakMap() as unknown as string}::text as v`.execute(threaded.db);
    await expect(notSendable).rejects.toThrow(/cannot be sent to the embedded database's thread/);
    const next = await sql<{ v: number }>`select 1 as v`.execute(threaded.db);
    expect(next.rows).toEqual([{ v: 1 }]);
  });

  it('ends a database closed before any statement, and two closes at once wait for the same', async () => {
    const dir = path.join(root, 'unused');
    const unused = await openDatabase({ kind: 'pglite', dataDir: dir, thread: true });
    await unused.close();
    expect(unused.pglite!.closed).toBe(true);
    const again = await openDatabase({ kind: 'pglite', dataDir: dir, thread: true });
    await sql`select 1`.execute(again.db);
    await expect(Promise.all([again.pglite!.close(), again.pglite!.close()])).resolves.toEqual([
      undefined,
      undefined,
    ]);
    await again.close();
    expect(again.pglite!.closed).toBe(true);
  }, 120_000);
});
