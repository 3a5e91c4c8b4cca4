import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/schema';

/**
 * Runs a reader of many statements on one snapshot where the database has snapshots for it: on PostgreSQL a
 * read-only repeatable-read transaction (one pooled connection, held while the text is read), so a ledger is one
 * board even while the stream writes. PGlite is one connection: a transaction there would stop every other query
 * for as long as a slow reader takes, so the reader runs without one and checks itself (LedgerMovedError).
 * Stopping early (a reader that went away) rolls the transaction back.
 */
export async function* inSnapshot<T>(
  db: Kysely<Database>,
  kind: 'pglite' | 'postgres',
  produce: (db: Db) => AsyncGenerator<T, void, undefined>,
): AsyncGenerator<T, void, undefined> {
  if (kind !== 'postgres') {
    yield* produce(db);
    return;
  }
  const trx = await db
    .startTransaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute();
  let done = false;
  try {
    yield* produce(trx);
    done = true;
  } finally {
    if (done) await trx.commit().execute();
    else await trx.rollback().execute();
  }
}
