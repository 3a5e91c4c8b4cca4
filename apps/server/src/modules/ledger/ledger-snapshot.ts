import { sql, type Kysely } from 'kysely';
import type { Database, Db } from '../../db/schema';

/**
 * Connections a ledger reads its records with on PostgreSQL, all on one snapshot: the database joins the record
 * lines (the week's text), so the next group is read on a second backend while the first is written (a week of
 * 1 M records built in 2.7–3.0 s instead of 3.8 s here, docs/benchmarks.md, "The weekly ledger"). Each build holds
 * this many pooled connections: the open-week route builds two at most (ledger.routes.ts) and the close job one,
 * so they hold 6 of the pool's 10 at most, and each takes its connections one after the other, so builds waiting
 * for a connection never hold the whole pool.
 */
export const SNAPSHOT_READERS = 2;

/** An exported snapshot's name as PostgreSQL writes it (e.g. `00000003-0000001B-1`): checked before it is quoted. */
const SNAPSHOT_ID = /^[0-9A-F]+-[0-9A-F]+(?:-[0-9]+)?$/i;

/**
 * Runs a reader of many statements on one snapshot where the database has snapshots for it: on PostgreSQL
 * read-only repeatable-read transactions (`readers` pooled connections, held while the text is read), the first
 * exporting its snapshot and the others taking it (`SET TRANSACTION SNAPSHOT`), so every reader sees one board
 * even while the stream writes. PGlite is one connection: a transaction there would stop every other query for as
 * long as a slow reader takes, so the reader runs without one, on the one connection, and checks itself
 * (LedgerMovedError). Stopping early (a reader that went away) rolls the transactions back.
 */
export async function* inSnapshot<T>(
  db: Kysely<Database>,
  kind: 'pglite' | 'postgres',
  produce: (readers: readonly [Db, ...Db[]]) => AsyncGenerator<T, void, undefined>,
  readers = SNAPSHOT_READERS,
): AsyncGenerator<T, void, undefined> {
  if (kind !== 'postgres') {
    yield* produce([db]);
    return;
  }
  const begin = () =>
    db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  const first = await begin();
  const transactions = [first];
  let done = false;
  try {
    if (readers > 1) {
      const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(first);
      const id = rows[0]?.id ?? '';
      if (!SNAPSHOT_ID.test(id))
        throw new Error(`PostgreSQL exported a snapshot named ${JSON.stringify(id)}`);
      for (let i = 1; i < readers; i++) {
        const other = await begin();
        transactions.push(other);
        // Before any other statement of the transaction, as PostgreSQL requires; the id cannot be a parameter.
        await sql`set transaction snapshot ${sql.lit(id)}`.execute(other);
      }
    }
    yield* produce([first, ...transactions.slice(1)]);
    done = true;
  } finally {
    for (const trx of transactions.reverse()) {
      if (done) await trx.commit().execute();
      else await trx.rollback().execute();
    }
  }
}
