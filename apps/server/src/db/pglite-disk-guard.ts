import fs from 'node:fs';
/** What the guard wraps: PGlite in this thread, or on its own (pglite-thread.ts). */
type Statements = {
  query(query: string, ...rest: never[]): Promise<unknown>;
  exec(query: string, ...rest: never[]): Promise<unknown>;
};
type Guardable<Tx extends Statements> = Statements & {
  transaction<R>(callback: (tx: Tx) => Promise<R>): Promise<R>;
};

/**
 * Free space the embedded database keeps on its disk: writes are refused below it. Four of PostgreSQL's 16 MB WAL
 * segments: the next segment a write may need, and room for the data files a batch extends.
 */
export const PGLITE_FREE_SPACE_RESERVE = 64 * 1024 * 1024;

export type DiskSpaceGuardOptions = {
  /** Bytes kept free (default PGLITE_FREE_SPACE_RESERVE). */
  reserveBytes?: number;
  /** Bytes free on the data directory's disk now (default: statfs of the directory, for an unprivileged user). */
  freeBytes?: () => number;
};

/** A write refused because the disk holding the embedded database is (nearly) full. */
export class DiskSpaceError extends Error {
  readonly code = 'ENOSPC';
  constructor(dataDir: string, free: number, reserve: number) {
    super(
      `the disk holding ${dataDir} has ${mb(free)} MB free, under the ${mb(reserve)} MB the embedded database ` +
        `keeps free: writes are refused until space returns (reads go on)`,
    );
    this.name = 'DiskSpaceError';
  }
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 0);

/** A statement that only reads: a SELECT, SHOW, VALUES or EXPLAIN, or a WITH that names no write. */
function onlyReads(query: string): boolean {
  const text = query.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (/^(select|show|values|explain)\b/i.test(text)) return !/^explain\s*\(?\s*analy[sz]e/i.test(text);
  if (/^with\b/i.test(text)) return !/\b(insert|update|delete|merge)\b/i.test(text);
  return false;
}

/**
 * The embedded database with its disk watched: a statement that may write (anything but a read), and the commit of
 * a transaction, is refused with a DiskSpaceError while the data directory's disk has less than the reserve free.
 *
 * Why (issue 32, the faults bench's `disk-full`): PGlite runs PostgreSQL on the serving thread. When a write needs
 * a new WAL segment and the disk is full, PostgreSQL's error comes inside a critical section (a PANIC on a server,
 * whose postmaster then restarts it); PGlite instead spins inside that one call, for good, even once space returns.
 * The event loop never turns again: no request is answered, and SIGTERM's handler (and the shutdown's 10 s exit)
 * never runs. A write that only fails to extend a data file is a plain error PGlite recovers from, but which
 * failure a full disk gives cannot be chosen. So writes stop before the disk is full, with an error that says so;
 * the stream job retries from its stored cursor with its backoff and goes on by itself when space returns.
 * A disk filled between the check and a write can still meet the hang: the reserve makes it unlikely, not
 * impossible (bench/pglite-disk-full.ts reproduces it as root on a small tmpfs).
 */
export function guardDiskSpace<Tx extends Statements, P extends Guardable<Tx>>(
  pglite: P,
  dataDir: string,
  options: DiskSpaceGuardOptions = {},
): P {
  const reserve = options.reserveBytes ?? PGLITE_FREE_SPACE_RESERVE;
  const freeBytes =
    options.freeBytes ??
    (() => {
      const s = fs.statfsSync(dataDir);
      return s.bavail * s.bsize;
    });
  const check = () => {
    const free = freeBytes();
    if (free < reserve) throw new DiskSpaceError(dataDir, free, reserve);
  };
  const guardWrites = <T extends Statements>(target: T, onWrite?: () => void): T =>
    new Proxy(target, {
      get(t, key) {
        const value: unknown = Reflect.get(t, key, t);
        if (key === 'query' || key === 'exec')
          return async (query: string, ...rest: unknown[]) => {
            if (!onlyReads(query)) {
              check();
              onWrite?.();
            }
            return (value as (q: string, ...r: unknown[]) => Promise<unknown>).apply(t, [query, ...rest]);
          };
        // PGlite keeps its state in private fields: its methods run on the instance itself, not the proxy.
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  const guarded = guardWrites(pglite);
  return new Proxy(guarded, {
    get(t, key) {
      if (key !== 'transaction') return Reflect.get(t, key, t);
      return <R>(callback: (tx: Tx) => Promise<R>) =>
        pglite.transaction(async (tx) => {
          let wrote = false;
          const result = await callback(guardWrites(tx, () => (wrote = true)));
          // The commit of a transaction that wrote flushes its WAL: refused too (it rolls back). A transaction
          // that only read commits as ever.
          if (wrote) check();
          return result;
        });
    },
  });
}
