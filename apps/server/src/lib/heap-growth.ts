import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets each heap grow past what its last full collection kept before it collects again (issue 31;
 * docs/configuration.md, "Memory", HEAP_GROWING_PERCENT): `1 + percent / 100` times, for every isolate of the
 * process (the serving thread, the stream's and the embedded database's threads), instead of V8's own factor (up to
 * 4× for a heap that allocates fast under a large limit; the serving thread's is 4 GB). V8 reads it at each
 * collection, so setting it once the process runs applies to every heap from its next full collection on. At 30, a
 * 1M-frame Bluesky backlog ended at 387-405 MB resident against 457-551 MB, for 10-25 % more CPU a frame
 * (docs/benchmarks.md): off by default. 0 leaves V8's own.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * V8's memory saver mode for every isolate of the process (issues 31 and 33; V8_MEMORY_SAVER, docs/configuration.md
 * "Memory"): in V8's words (`node --v8-options`), it "tries to keep memory footprint low at the expense of extra cpu
 * cycles". Through a 1M-frame Bluesky backlog the serving thread's heap held 46–52 MB
 * committed with it against 53–155 MB without, and the process 231–276 MB resident at the most against 297–458 MB,
 * for 10–15 % more CPU a frame (docs/benchmarks.md, 29 November). V8 reads it as it collects, so setting it once the
 * process runs (before the threads start) applies to every heap. Off sets nothing: V8 leaves the mode to the
 * embedder, and Node never turns it on.
 */
export function saveHeapMemory(on: boolean): void {
  if (on) setFlagsFromString('--memory-saver-mode');
}
