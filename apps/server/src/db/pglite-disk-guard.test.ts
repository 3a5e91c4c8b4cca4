import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database';
import { DiskSpaceError, PGLITE_FREE_SPACE_RESERVE } from './pglite-disk-guard';

const GB = 1024 * 1024 * 1024;

// Issue 32 (the faults bench's disk-full): a write that meets a full disk can hang PGlite for good, so writes stop
// at a reserve of free space. The database is real; only the disk's free space is the test's.
describe("the embedded database's free-space guard", () => {
  let free = GB;
  let database: DatabaseHandle;
  const count = async (db = database.db) =>
    Number((await sql<{ n: string }>`select count(*) as n from t`.execute(db)).rows[0]?.n);
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', diskGuard: { freeBytes: () => free } });
    await sql`create table t (id int primary key)`.execute(database.db);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('refuses every write below the reserve with a clear error, reads go on, and writes resume when space returns', async () => {
    free = GB;
    await sql`insert into t values (1)`.execute(database.db);
    free = PGLITE_FREE_SPACE_RESERVE - 1;
    const refused = sql`insert into t values (2)`.execute(database.db);
    await expect(refused).rejects.toBeInstanceOf(DiskSpaceError);
    await expect(refused).rejects.toThrow(/has 64 MB free, under the 64 MB the embedded database keeps free/);
    await expect(
      sql`with x as (delete from t returning id) select * from x`.execute(database.db),
    ).rejects.toThrow(DiskSpaceError);
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sql`insert into t values (3)`.execute(tx);
      }),
    ).rejects.toThrow(DiskSpaceError);
    // Reads, alone or in a transaction, are answered.
    expect(await count()).toBe(1);
    expect(await database.db.transaction().execute(async (tx) => count(tx))).toBe(1);
    free = GB;
    await sql`insert into t values (2)`.execute(database.db);
    expect(await count()).toBe(2);
  });

  it('a transaction that wrote while space was left is not committed once the disk is full', async () => {
    free = GB;
    const before = await count();
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sql`insert into t values (10)`.execute(tx);
        free = 0;
      }),
    ).rejects.toThrow(DiskSpaceError);
    free = GB;
    expect(await count()).toBe(before);
  });

  it("reads the data directory's own disk", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-disk-guard-'));
    const onDisk = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      await sql`create table u (id int)`.execute(onDisk.db);
      await sql`insert into u values (1)`.execute(onDisk.db);
    } finally {
      await onDisk.close();
    }
    // A reserve no disk has: the directory's real free space is below it. The same on the database's own thread
    // (the server's on Bluesky, pglite-thread.ts): the guard stands on this side of it.
    try {
      for (const thread of [false, true]) {
        const full = await openDatabase({
          kind: 'pglite',
          dataDir: dir,
          thread,
          diskGuard: { reserveBytes: 2 ** 60 },
        });
        try {
          expect(full.threaded === true).toBe(thread);
          await expect(sql`insert into u values (2)`.execute(full.db)).rejects.toThrow(DiskSpaceError);
          await expect(
            full.db.transaction().execute(async (tx) => {
              await sql`insert into u values (3)`.execute(tx);
            }),
          ).rejects.toThrow(DiskSpaceError);
          expect((await sql<{ id: number }>`select id from u`.execute(full.db)).rows).toEqual([{ id: 1 }]);
        } finally {
          await full.close();
        }
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
