/**
 * The embedded database's own thread (pglite-thread.ts starts it; built beside the server's bundle as
 * pglite-thread.js, scripts/build.mjs). PGlite runs PostgreSQL in WebAssembly, each statement synchronously on the
 * thread that calls it: here, so the thread that serves requests never waits for a statement (issue 31).
 */
import { parentPort } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgliteStartParams } from './pglite-start-params';
import { releaseFileBundle, type BundleRelease } from './pglite-file-bundle';
import { initPgliteDataDir } from './pglite-init';
import { toThreadError, type FromThread, type ThreadStart, type ToThread } from './pglite-thread-protocol';

if (!parentPort) throw new Error('pglite-thread-entry.ts runs as a worker thread');
const port = parentPort;
const post = (message: FromThread) => port.postMessage(message);

/** Thrown into a transaction's callback to roll it back (PGlite rolls back when its callback throws). */
const ROLL_BACK = Symbol('roll back');

type Open = { tx: Transaction; end: (commit: boolean) => void };
const transactions = new Map<number, Open>();
/** The answer for a transaction's end, given once PGlite has committed or rolled it back. */
const ending = new Map<number, number>();

async function open(start: ThreadStart): Promise<{ pglite: PGlite; fileBundle: BundleRelease }> {
  const startParams = start.memory ? pgliteStartParams(PGlite.defaultStartParams, start.memory) : undefined;
  if (start.init) await initPgliteDataDir(start.dataDir, startParams);
  const pglite = await PGlite.create({
    dataDir: start.dataDir,
    extensions: { pg_trgm },
    ...(startParams ? { startParams } : {}),
  });
  return { pglite, fileBundle: releaseFileBundle(pglite) };
}

function answer(id: number, work: Promise<unknown>): void {
  work.then(
    (value) => post({ type: 'done', id, value }),
    (error: unknown) => post({ type: 'error', id, error: toThreadError(error) }),
  );
}

function target(pglite: PGlite, tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error(`no transaction ${tx} is open on the embedded database's thread`);
  return open.tx;
}

function begin(pglite: PGlite, id: number): void {
  pglite
    .transaction(async (tx) => {
      const commit = await new Promise<boolean>((resolve) => {
        transactions.set(id, { tx, end: resolve });
        post({ type: 'done', id, value: id });
      });
      if (!commit) throw ROLL_BACK;
    })
    .then(
      () => settle(id, undefined),
      (error: unknown) => settle(id, error === ROLL_BACK ? undefined : error, error !== ROLL_BACK),
    );
}

/** The transaction `tx` has ended: its `end` call is answered, or its `begin`'s if it never began. */
function settle(tx: number, error: unknown, failed = false): void {
  const began = transactions.delete(tx);
  const endId = ending.get(tx);
  ending.delete(tx);
  const id = began ? endId : tx;
  if (id === undefined) return;
  if (failed) post({ type: 'error', id, error: toThreadError(error) });
  else post({ type: 'done', id, value: undefined });
}

function serve(pglite: PGlite, message: Exclude<ToThread, { type: 'open' }>): void {
  try {
    switch (message.type) {
      case 'query':
        answer(
          message.id,
          target(pglite, message.tx)
            .query(message.sql, message.params, { rowMode: 'object' })
            .then(({ rows, affectedRows, fields }) => ({ rows, affectedRows, fields })),
        );
        return;
      case 'exec':
        answer(
          message.id,
          target(pglite, message.tx)
            .exec(message.sql)
            .then((results) =>
              results.map(({ rows, affectedRows, fields }) => ({ rows, affectedRows, fields })),
            ),
        );
        return;
      case 'begin':
        begin(pglite, message.id);
        return;
      case 'end': {
        const open = transactions.get(message.tx);
        if (!open) throw new Error(`no transaction ${message.tx} is open on the embedded database's thread`);
        ending.set(message.tx, message.id);
        open.end(message.commit);
        return;
      }
      case 'dump':
        // The tar's bytes are handed over, not copied (a backup of a large database held two copies).
        pglite
          .dumpDataDir(message.compression)
          .then((file) => file.arrayBuffer())
          .then(
            (value) =>
              port.postMessage({ type: 'done', id: message.id, value } satisfies FromThread, [value]),
            (error: unknown) => post({ type: 'error', id: message.id, error: toThreadError(error) }),
          );
        return;
      case 'close':
        answer(message.id, pglite.close());
        return;
    }
  } catch (error) {
    post({ type: 'error', id: message.id, error: toThreadError(error) });
  }
}

// The thread starts (and loads PGlite's code) while the serving thread takes the data directory's lock; it opens
// the database when told.
let opened: PGlite | null = null;
port.on('message', (message: ToThread) => {
  if (message.type !== 'open') {
    if (opened) serve(opened, message);
    else
      post({
        type: 'error',
        id: message.id,
        error: toThreadError(new Error('the database is not open yet')),
      });
    return;
  }
  open(message.start).then(
    ({ pglite, fileBundle }) => {
      opened = pglite;
      post({ type: 'ready', fileBundle });
    },
    (error: unknown) => post({ type: 'failed', error: toThreadError(error) }),
  );
});
