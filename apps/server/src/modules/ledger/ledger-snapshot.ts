import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/schema';
import { exportSnapshot, importSnapshot } from './ledger-read.repository';

/**
 * Connections a ledger reads its records with on PostgreSQL, all on one snapshot: the database joins the record
 * lines (the week's text), so the next group is read on a second backend while the first is written (a week of
 * 1 M records built in 2.7–3.0 s instead of 3.8 s here, docs/benchmarks.md, "The weekly ledger").
 */
export const SNAPSHOT_READERS = 2;

/**
 * Builds of this process reading on more than one connection at once, at most; others read on one. A build takes
 * its connections one after the other, so one waiting for its second holds its first meanwhile: with at most this
 * many such builds, builds can never hold the whole pool (10) while each waits for another connection, however
 * many are asked for at once (the open-week route, the console's and the operator's week checks, the close job).
 */
const MAX_SHARED_BUILDS = 2;
let sharedBuilds = 0;

/**
 * Runs a reader of many statements on one snapshot where the database has snapshots for it: on PostgreSQL
 * read-only repeatable-read transactions (`readers` pooled connections, held while the text is read, fewer while
 * MAX_SHARED_BUILDS others read on several), the first exporting its snapshot and the others taking it, so every
 * reader sees one board even while the stream writes. PGlite is one connection: a transaction there would stop
 * every other query for as long as a slow reader takes, so the reader runs without one, on the one connection, and
 * checks itself (LedgerMovedError). The transactions are read-only, so each is rolled back at the end, each on its
 * own: one whose connection died cannot keep the others' connections from the pool.
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
  const shared = readers > 1 && sharedBuilds < MAX_SHARED_BUILDS;
  if (shared) sharedBuilds++;
  const begin = () =>
    db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  const transactions: Array<Awaited<ReturnType<typeof begin>>> = [];
  let failedEnding: PromiseRejectedResult | undefined;
  try {
    const first = await begin();
    transactions.push(first);
    if (shared) {
      const id = await exportSnapshot(first);
      for (let i = 1; i < readers; i++) {
        const other = await begin();
        transactions.push(other);
        await importSnapshot(other, id);
      }
    }
    yield* produce([first, ...transactions.slice(1)]);
  } finally {
    if (shared) sharedBuilds--;
    const endings = await Promise.allSettled(transactions.map((trx) => trx.rollback().execute()));
    failedEnding = endings.find((e): e is PromiseRejectedResult => e.status === 'rejected');
  }
  // Reached only when the reading ended well: after a failure of its own, that failure is what the caller hears.
  if (failedEnding) throw failedEnding.reason;
}
