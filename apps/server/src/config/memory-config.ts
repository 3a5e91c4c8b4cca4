import { z } from 'zod';
import type { PgliteMemory } from '../db/pglite-start-params';

/** A PostgreSQL memory size: a whole number with kB, MB or GB (as postgresql.conf writes them). */
const pgSize = z.string().regex(/^\d+(kB|MB|GB)$/, 'a size such as 16MB');

/**
 * The settings that trade memory for speed (issue 23; docs/configuration.md, "Memory"). The embedded database
 * runs in WebAssembly, whose memory grows and is never given back: every buffer PostgreSQL touches stays
 * resident. Its defaults are PostgreSQL's (128MB of shared buffers, 64MB per maintenance operation), sized for a
 * database server; the demo's whole database fits in a few MB, so smaller ones cost it nothing.
 *
 * The shared buffers are resident from the open on (PostgreSQL sets the whole pool up as it starts): an idle demo's
 * WebAssembly memory held 31 MB with 16MB of them, 23 MB with 8MB, and a restart spent less CPU before listening,
 * with the demo's replay and reads no slower (issue 33, docs/benchmarks.md).
 */
export const memoryEnvShape = {
  PGLITE_SHARED_BUFFERS: pgSize.default('8MB'),
  PGLITE_MAINTENANCE_WORK_MEM: pgSize.default('16MB'),
  PGLITE_WORK_MEM: pgSize.default('4MB'),
  /**
   * Where the embedded database runs: `worker`, a thread of its own (db/pglite-thread.ts: no statement holds the
   * requests); `inline`, the thread serving requests (one V8 heap fewer); `auto`, a thread of its own on Bluesky,
   * whose stream stores all the time, else inline (docs/configuration.md).
   */
  PGLITE_THREAD: z.enum(['auto', 'worker', 'inline']).default('auto'),
  /**
   * How far each V8 heap grows past what its last full collection kept (lib/heap-growth.ts), in %; 0 (the
   * default): V8's own. Less memory for more CPU (docs/configuration.md).
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(300).default(0),
  /**
   * V8's memory saver mode for every heap of the process (lib/heap-growth.ts): `on`, `off`, or `auto`, on where the
   * Bluesky stream runs (`memorySaver`, below).
   */
  V8_MEMORY_SAVER: z.enum(['auto', 'on', 'off']).default('auto'),
  /** How often the server checks whether to give memory back (memory-trim.ts); 0: never. */
  MEMORY_TRIM_SECONDS: z.coerce.number().int().min(0).max(86_400).default(5),
};

/**
 * Whether the operator chose V8's young generation (`--max-semi-space-size` in NODE_OPTIONS): then the start script
 * adds none (scripts/runtime-env.mjs) and the worker threads keep the operator's too (lib/thread-heaps.ts).
 */
export function operatorSetsSemiSpace(nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return /(^|\s)--max-semi-space-size/.test(nodeOptions);
}

export function pgliteMemory(e: {
  PGLITE_SHARED_BUFFERS: string;
  PGLITE_MAINTENANCE_WORK_MEM: string;
  PGLITE_WORK_MEM: string;
}): PgliteMemory {
  return {
    sharedBuffers: e.PGLITE_SHARED_BUFFERS,
    maintenanceWorkMem: e.PGLITE_MAINTENANCE_WORK_MEM,
    workMem: e.PGLITE_WORK_MEM,
  };
}

// The database thread (db/pglite-thread-entry.ts) needs these without this module's zod (issue 33).
export { pgliteStartParams, type PgliteMemory } from '../db/pglite-start-params';

/**
 * Whether the server runs the embedded database on a thread of its own (PGLITE_THREAD). `auto`: on Bluesky, where the
 * stream stores a batch every second and a backlog stores for minutes on end, each batch held the requests on the
 * serving thread (board p99 107 ms against 22 ms on the thread, issue 31); on X the worker's writes come in short
 * spells, and the thread's cost (a second V8 heap, ~27 MB idle; every statement crossing threads, the demo's replay
 * ~10 % slower) buys little (issue 33; docs/benchmarks.md).
 */
export function pgliteThread(setting: 'auto' | 'worker' | 'inline', network: 'x' | 'bluesky'): boolean {
  return setting === 'worker' || (setting === 'auto' && network === 'bluesky');
}

/**
 * Whether V8 keeps the process's heaps small at some CPU's cost (V8_MEMORY_SAVER; lib/heap-growth.ts). `auto`: on
 * Bluesky, whose stream allocates all the time on three threads and whose backlog grew the heaps past 400 MB
 * resident without it (issue 31); on X the server is quiet between the worker's spells, and V8's own memory reducer
 * settles it then (docs/benchmarks.md, 29 November).
 */
export function memorySaver(setting: 'auto' | 'on' | 'off', network: 'x' | 'bluesky'): boolean {
  return setting === 'on' || (setting === 'auto' && network === 'bluesky');
}
