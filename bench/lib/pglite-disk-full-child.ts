// The writer of bench/pglite-disk-full.ts, in a process of its own: the embedded database on BENCH_DISK_DIR, opened
// as the server opens it (openDatabase: with its free-space guard, or BENCH_DISK_RESERVE=0, none), writing a small
// transaction in a loop the way the stream stores batches. Once told the disk is full, each transaction also asks
// PostgreSQL for a new WAL segment (pg_switch_wal), as a write crossing a segment's end does. It reports every
// 250 ms; a process whose event loop no longer turns stops reporting, and never sees SIGTERM.
import { sql } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/database';

const dir = process.env.BENCH_DISK_DIR ?? '';
const reserve = process.env.BENCH_DISK_RESERVE;
const handle = await openDatabase({
  kind: 'pglite',
  dataDir: dir,
  ...(reserve === undefined ? {} : { diskGuard: { reserveBytes: Number(reserve) } }),
});
const { db } = handle;
await sql`create table if not exists c (k int primary key, v bigint)`.execute(db);
await sql`insert into c select g, 0 from generate_series(1, 20000) g on conflict do nothing`.execute(db);
await sql`delete from c where k > 1`.execute(db);
// Room in the table's pages: the updates below need no new data page, only WAL.
await sql`vacuum (truncate false) c`.execute(db);

let full = false;
let ok = 0;
let failed = 0;
let lastError = '';
process.on('message', (m) => {
  if (m === 'full') full = true;
  if (m === 'freed') full = false;
});
process.on('SIGTERM', () => {
  void handle.close().finally(() => process.exit(0));
});
setInterval(() => process.send?.({ ok, failed, lastError }), 250);
process.send?.('ready');
for (;;) {
  try {
    await db.transaction().execute(async (tx) => {
      await sql`update c set v = v + 1 where k = 1`.execute(tx);
      if (full) await sql`select pg_switch_wal()`.execute(tx);
    });
    ok++;
  } catch (error) {
    failed++;
    lastError = error instanceof Error ? error.message : String(error);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The stream awaits the network between batches: the loop turns.
  await new Promise((resolve) => setImmediate(resolve));
}
