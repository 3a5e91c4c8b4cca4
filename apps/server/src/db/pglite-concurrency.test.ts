import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database';

/**
 * The embedded database is one PGlite connection shared by the API and the worker. These pin down what the
 * engine relies on: a caller's query never joins another caller's open transaction, and concurrent
 * transactions stay apart.
 */
describe('the embedded database under concurrent callers', () => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await openDatabase({ kind: 'pglite' });
    await sql`create table probe (id int primary key, v text not null)`.execute(h.db);
  });
  afterAll(() => h.close());

  it('keeps a write made during another caller’s transaction when that transaction rolls back', async () => {
    let markOpened!: () => void;
    const opened = new Promise<void>((resolve) => (markOpened = resolve));
    const failing = h.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into probe values (1, 'rolled back')`.execute(trx);
        markOpened();
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error('roll back');
      })
      .catch((error: unknown) => (error as Error).message);
    await opened;
    const outside = sql`insert into probe values (2, 'outside')`.execute(h.db);
    const second = h.db.transaction().execute(async (trx) => {
      await sql`insert into probe values (3, 'second transaction')`.execute(trx);
    });
    expect(await failing).toBe('roll back');
    await Promise.all([outside, second]);
    const rows = await sql<{ id: number }>`select id from probe order by id`.execute(h.db);
    expect(rows.rows.map((row) => row.id)).toEqual([2, 3]);
  });
});
