import { getHeapStatistics, setFlagsFromString, type HeapInfo } from 'node:v8';
import type { ResourceLimits, Worker } from 'node:worker_threads';

/**
 * The V8 heaps of this process's threads, each read as Prometheus scrapes it (issues 31 and 33): the serving
 * thread's, and those of the worker threads that registered themselves here (the embedded database's,
 * db/pglite-thread.ts, and the Bluesky stream's, integrations/bluesky/bluesky-stream-thread.ts). Node's default
 * metrics (`nodejs_heap_*`) read the serving thread's alone, yet on Bluesky each of the three isolates holds tens of
 * MB of its own, and which of them grows is what an operator of a small machine needs to know.
 *
 * The threads are the process's, as the resident memory is, so the registry is the process's too: every app in one
 * process (tests) reads the same threads.
 */
export type ThreadHeap = {
  thread: string;
  /** What the last full collection and the allocation since hold. */
  usedBytes: number;
  /** What V8 has taken from the system for the heap (committed). */
  totalBytes: number;
  /** Memory outside the heap that its objects hold: ArrayBuffers' contents, PGlite's WebAssembly memory. */
  externalBytes: number;
};

/**
 * The young generation of each worker thread's V8 heap (MB; V8 splits it into two semi-spaces of a third each and a
 * third for new large objects): semi-spaces of 1 MB, a quarter of the serving thread's 4 (`--max-semi-space-size=4`,
 * scripts/runtime-env.mjs). A Bluesky server runs three isolates, and under the stream each one's young generation
 * filled to its limit. With the threads' at this size a Bluesky server at 2,000 events/s held 6-10 MB less, and the
 * distinct backlog was stored no slower (issues 31 and 33, docs/benchmarks.md). The serving thread keeps its 4 MB:
 * at 2 MB its reads and starts were within the runs' noise, not better, and an idle demo (no threads) was no smaller.
 */
export const THREAD_YOUNG_GENERATION_MB = 3;

let threadsOwnYoungGeneration = false;

/**
 * The resource limits of a worker thread of this server: `oldGenerationMb` (each thread says why its own) and the
 * young generation above. V8 takes a thread's `maxYoungGenerationSizeMb` only while no `--max-semi-space-size` is set
 * for the process, which then wins for every isolate: the server's own (package.json's start scripts) has already
 * sized the serving thread's heap as the process started, so it is cleared here before the first thread starts, and
 * each thread's heap is sized by its limits as V8 creates it (apps/server/src/lib/thread-heaps.test.ts checks both
 * sizes). One in NODE_OPTIONS is the operator's (`operatorSetsSemiSpace()`, config/memory-config.ts;
 * docs/configuration.md, "Memory") and stays, for the threads too.
 */
export function threadResourceLimits(
  oldGenerationMb: number,
  operatorSetsSemiSpace: boolean,
): ResourceLimits {
  if (!threadsOwnYoungGeneration) {
    threadsOwnYoungGeneration = true;
    if (!operatorSetsSemiSpace) setFlagsFromString('--max-semi-space-size=0');
  }
  return { maxOldGenerationSizeMb: oldGenerationMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB };
}

type HeapSource = { getHeapStatistics(): Promise<HeapInfo> };

const threads = new Map<HeapSource, string>();

/** Reads `worker`'s heap at each scrape under `thread` until it exits (or the returned function is called). */
export function watchThreadHeap(thread: string, worker: Worker): () => void {
  threads.set(worker, thread);
  const forget = () => threads.delete(worker);
  worker.once('exit', forget);
  return () => {
    worker.off('exit', forget);
    forget();
  };
}

const reading = (thread: string, info: HeapInfo): ThreadHeap => ({
  thread,
  usedBytes: info.used_heap_size,
  totalBytes: info.total_heap_size,
  externalBytes: info.external_memory,
});

/** The serving thread's heap, then each watched thread's that answers (one that is ending is left out). */
export async function readThreadHeaps(): Promise<ThreadHeap[]> {
  const others = await Promise.all(
    [...threads].map(async ([source, thread]) => {
      try {
        return reading(thread, await source.getHeapStatistics());
      } catch {
        // The thread ended between the listing and the answer.
        return null;
      }
    }),
  );
  return [reading('serving', getHeapStatistics()), ...others.filter((r): r is ThreadHeap => r !== null)];
}
