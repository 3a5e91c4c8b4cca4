import type { BundleRelease } from './pglite-file-bundle';
import type { PgliteMemory } from './pglite-start-params';

/**
 * The messages between the serving thread and the embedded database's own thread (pglite-thread.ts, its entry
 * pglite-thread-entry.ts). Every call carries an id its answer repeats; the thread answers calls in any order, as
 * PGlite settles them (its own locks order the statements, as they do in one thread).
 */
export type ThreadStart = {
  /** PGlite's data directory (DATA_DIR/pglite), prepared by the serving thread (pglite-init.ts). */
  dataDir: string;
  memory?: PgliteMemory;
  /** A fresh directory is made first (copied from the build's template, or by initdb in a child process). */
  init?: boolean;
};

export type ToThread =
  /** Opens the database (sent once the data directory's owner lock is held: the thread starts before). */
  | { type: 'open'; start: ThreadStart }
  /** A statement, in the transaction `tx` (the id of its `begin`) when given. */
  | { type: 'query'; id: number; sql: string; params: unknown[]; tx?: number }
  /** Statements without parameters, one after the other (PGlite's exec). */
  | { type: 'exec'; id: number; sql: string; tx?: number }
  /** Opens a transaction: its id is this call's. */
  | { type: 'begin'; id: number }
  /** Ends transaction `tx`: commit or roll back; answered once it has. */
  | { type: 'end'; id: number; tx: number; commit: boolean }
  | { type: 'dump'; id: number; compression: 'none' | 'gzip' | 'auto' }
  | { type: 'close'; id: number };

/** An error as it crosses the threads: PostgreSQL's fields (code, constraint, detail, …) kept. */
export type ThreadError = {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
};

export type FromThread =
  | { type: 'ready'; fileBundle: BundleRelease }
  | { type: 'failed'; error: ThreadError }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'error'; id: number; error: ThreadError };

/** Fields of an error that survive the crossing: its own primitive values. */
export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      fields[key] = value as string | number | boolean | null;
  }
  return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}), fields };
}

/** The error again, on this side: an Error with the same name, message and fields. */
export function fromThreadError(error: ThreadError): Error {
  const rebuilt = Object.assign(new Error(error.message), error.fields);
  Object.defineProperty(rebuilt, 'name', { value: error.name, configurable: true, writable: true });
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}
