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
