import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { GC_FUNCTION, type GcExtension } from './memory-trim';

/**
 * A bound on the garbage one long piece of work leaves for V8 to find (issue 30: a week's ledger, hundreds of MB of
 * text read from the database and handed on). Such text lives long enough to be promoted (the database's next
 * group is read while this one is written), and V8 lets its old generation grow to about four times what survived
 * its last full collection, and external memory (Buffers, large strings) by 64 MB, before it collects: the first
 * ledger after a start grew the server by ~150 MB so, and kept most of it resident.
 *
 * `check()`, called between pieces, runs a full collection when the old generation in use plus external memory
 * has grown by more than `bytes` since the last one (or since the budget was made), and says whether it did. The
 * young generation is left out: a scavenge frees it cheaply, and counting it made a week's build collect twice as
 * often (0.33× the plain query's rate against 0.41×, same machine, same hour). It needs the gc
 * extension `npm start` exposes (scripts/runtime-env.mjs, GC_FUNCTION); without it, nothing is collected and V8's
 * own pace stands. Reading the figures costs about a microsecond.
 */
export type HeapBudget = { check: () => boolean; collections: () => number };

/** The young generation: what a scavenge frees cheaply, no reason for a full collection. */
const YOUNG = new Set(['new_space', 'new_large_object_space']);

const inUse = () => {
  let old = 0;
  for (const space of getHeapSpaceStatistics())
    if (!YOUNG.has(space.space_name)) old += space.space_used_size;
  return old + getHeapStatistics().external_memory;
};

export function heapBudget(bytes: number): HeapBudget {
  const gc = (globalThis as Record<string, unknown>)[GC_FUNCTION] as GcExtension | undefined;
  let base = inUse();
  let collections = 0;
  return {
    check: () => {
      if (!gc || inUse() - base <= bytes) return false;
      // Synchronous: an asynchronous (concurrent) one finishes too late to bound anything here (measured: the first
      // ledger grew the server by 118 MB with it, 31-35 MB with this).
      gc({ type: 'major', execution: 'sync' });
      collections++;
      base = inUse();
      return true;
    },
    collections: () => collections,
  };
}
