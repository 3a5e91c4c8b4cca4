import { getHeapStatistics, type HeapInfo } from 'node:v8';
import type { Worker } from 'node:worker_threads';

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
