import module from 'node:module';
import { Worker } from 'node:worker_threads';
import { childProcessEnv } from '../config/child-env';
import { operatorSetsSemiSpace } from '../config/memory-config';
import {
  fromThreadError,
  type FromThread,
  type ThreadError,
  type ThreadStart,
  type ToThread,
} from './pglite-thread-protocol';
import type { BundleRelease } from './pglite-file-bundle';
import { threadResourceLimits, watchThreadHeap } from '../lib/thread-heaps';

/**
 * The thread's entry, pglite-thread-entry.ts: built beside the server's bundle as pglite-thread.js (scripts/build.mjs;
 * the bundle's directory is flat); from the sources (tests, tsx) the .ts file, loaded through tsx.
 */
function threadEntry(): { url: URL; execArgv: string[] } {
  return import.meta.url.endsWith('.ts')
    ? { url: new URL('./pglite-thread-entry.ts', import.meta.url), execArgv: ['--import', 'tsx'] }
    : { url: new URL('./pglite-thread.js', import.meta.url), execArgv: [] };
}

/**
 * The thread's V8 old generation at most this size (MB), for how eagerly V8 collects there rather than as a cap:
 * V8 lets a heap grow between full collections by a factor that falls with its limit, up to 4× its live size
 * under the default limit (4 GB here), 1.3× at 256 MB and ~1.35× at this one. The thread's heap holds PGlite's
 * JavaScript (~20 MB live; its WebAssembly memory lies outside) and each result until it is sent, yet in a Bluesky
 * backlog it reached 46-57 MB with the default and stayed at 29-33 MB with this (issue 31, docs/benchmarks.md).
 * A live set that reached the limit would end the thread, which stops the server (`onExit`): 384 MB is ~19× what
 * it holds, and a result of that size would not be sent whole to the serving thread either.
 */
export const DATABASE_THREAD_OLD_GENERATION_MB = 384;

type Results = { rows: unknown[]; affectedRows?: number; fields: { name: string; dataTypeID: number }[] };
/** A message to the thread before its id is given. */
type Call =
  Exclude<ToThread, { type: 'open' }> extends infer T ? (T extends ToThread ? Omit<T, 'id'> : never) : never;

type Rows<T> = Omit<Results, 'rows'> & { rows: T[] };

/** What the rest of the server uses of an embedded database: PGlite's calls, answered by its thread. */
export type ThreadTransaction = {
  query<T>(sql: string, params?: unknown[]): Promise<Rows<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

/**
 * The embedded database (PGlite) in a worker thread of its own (issue 31): PGlite runs each statement
 * synchronously on the thread that calls it, so on the serving thread a stream's batch (or any long statement)
 * held every request until it was done; here the serving thread only sends each statement and awaits its answer.
 * The thread owns the one PGlite instance, so statements are ordered as in one thread (PGlite's own locks: a
 * transaction holds the database until it ends). Results and parameters cross by structured clone (Dates, bigints,
 * byte arrays and JSON values keep their types), errors with PostgreSQL's fields (`code`, `constraint`, …).
 *
 * It has the calls Kysely's PGlite dialect makes (query, transaction, close, ready, waitReady) and a dump of the
 * data directory for backups. If the thread dies, every call under way and after fails with the reason
 * (`onExit` is told), and nothing committed is lost: each commit is on disk before its answer.
 */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly calls = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private next = 0;
  private failure: Error | null = null;
  closed = false;
  ready = false;
  /** What became of PGlite's file bundle as the thread opened the database (pglite-file-bundle.ts). */
  fileBundle: BundleRelease | undefined;
  readonly waitReady: Promise<void>;

  private constructor(onExit: (error: Error) => void) {
    const entry = threadEntry();
    // The thread compiles PGlite's JavaScript from the server's compile cache too (scripts/run.mjs): a thread
    // inherits it only through the environment.
    const cache = module.getCompileCacheDir();
    this.worker = new Worker(entry.url, {
      execArgv: entry.execArgv,
      resourceLimits: threadResourceLimits(DATABASE_THREAD_OLD_GENERATION_MB, operatorSetsSemiSpace()),
      ...(cache ? { env: childProcessEnv({ NODE_COMPILE_CACHE: cache }) } : {}),
    });
    // Held open only while a call waits for its answer (as an in-thread PGlite holds nothing open).
    this.worker.unref();
    watchThreadHeap('database', this.worker);
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: FromThread) => {
        switch (message.type) {
          case 'ready':
            this.ready = true;
            this.fileBundle = message.fileBundle;
            resolve();
            return;
          case 'failed':
            reject(fromThreadError(message.error));
            void this.worker.terminate();
            return;
          default:
            this.settle(
              message.id,
              message.type === 'done' ? { value: message.value } : { error: message.error },
            );
        }
      });
      const died = (error: Error) => {
        const wasReady = this.ready;
        this.ready = false;
        this.failure ??= error;
        reject(error);
        for (const call of this.calls.values()) call.reject(this.failure);
        this.calls.clear();
        if (wasReady && !this.closed) onExit(this.failure);
      };
      this.worker.on('error', (error) =>
        died(new Error(`the embedded database's thread failed: ${error.message}`, { cause: error })),
      );
      this.worker.on('exit', (code) =>
        died(new Error(`the embedded database's thread stopped (exit code ${code})`)),
      );
    });
  }

  /**
   * Starts the thread, which loads PGlite's code and waits to be told to open (`open`): a caller starts it before it
   * takes the data directory's lock, so the two overlap.
   */
  static start(onExit: (error: Error) => void = () => undefined): PgliteThread {
    const thread = new PgliteThread(onExit);
    // Awaited by open(); a thread ended unopened must not fail the process.
    thread.waitReady.catch(() => undefined);
    return thread;
  }

  /** Opens PGlite on the thread (`start`: its data directory and settings); resolves once it answers. */
  async open(start: ThreadStart): Promise<this> {
    this.worker.postMessage({ type: 'open', start } satisfies ToThread);
    // Held open while it opens (as any call).
    this.worker.ref();
    try {
      await this.waitReady;
    } finally {
      if (this.calls.size === 0) this.worker.unref();
    }
    return this;
  }

  private settle(id: number, outcome: { value: unknown } | { error: ThreadError }): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    if (this.calls.size === 0) this.worker.unref();
    if ('error' in outcome) call.reject(fromThreadError(outcome.error));
    else call.resolve(outcome.value);
  }

  private call<T>(message: Call): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the embedded database is closed'));
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.next;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (this.calls.size === 1) this.worker.ref();
      try {
        this.worker.postMessage({ ...message, id } as ToThread);
      } catch (error) {
        // A value structured clone cannot copy (a function, a class instance): the call never left.
        this.calls.delete(id);
        if (this.calls.size === 0) this.worker.unref();
        const reason = error instanceof Error ? error.message : String(error);
        reject(
          new Error(`a statement cannot be sent to the embedded database's thread: ${reason}`, {
            cause: error,
          }),
        );
      }
    });
  }

  query<T>(sql: string, params: unknown[] = []): Promise<Rows<T>> {
    return this.call({ type: 'query', sql, params });
  }

  exec(sql: string): Promise<Results[]> {
    return this.call({ type: 'exec', sql });
  }

  /** As PGlite's: the callback's statements run in one transaction, committed when it resolves, else rolled back. */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ type: 'begin' });
    let ended = false;
    const end = async (commit: boolean) => {
      if (ended) return;
      ended = true;
      await this.call({ type: 'end', tx: id, commit });
    };
    const tx: ThreadTransaction = {
      query: <R>(sql: string, params: unknown[] = []) =>
        this.call<Rows<R>>({ type: 'query', sql, params, tx: id }),
      exec: (sql: string) => this.call<Results[]>({ type: 'exec', sql, tx: id }),
      rollback: () => end(false),
      get closed() {
        return ended;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await end(false).catch(() => undefined);
      throw error;
    }
    await end(true);
    return result;
  }

  /** PGlite's dump of its data directory (a tar, gzipped when asked). */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    const bytes = await this.call<ArrayBuffer>({ type: 'dump', compression });
    return new Blob([bytes], { type: compression === 'none' ? 'application/x-tar' : 'application/x-gzip' });
  }

  private closing: Promise<void> | null = null;

  /**
   * Closes PGlite (a clean shut-down of PostgreSQL), then ends the thread (at once when it never opened). Every
   * caller waits for the same close.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.failure && this.ready) await this.call({ type: 'close' });
      } finally {
        this.closed = true;
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }
}
