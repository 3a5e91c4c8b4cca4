import { loadLibc } from './libc';

/** glibc's `M_MMAP_THRESHOLD` (malloc.h). */
const M_MMAP_THRESHOLD = -3;

/** glibc's own starting threshold: blocks of 128 KiB and more are mapped on their own and unmapped when freed. */
export const MMAP_THRESHOLD = 128 * 1024;

/**
 * Fixes glibc's mmap threshold at its starting value, so large freed blocks go back to the system (issue 23). glibc
 * raises the threshold each time a mapped block is freed (up to 32 MB), and from then on serves blocks of that
 * size from its heap, which keeps them once freed: V8 mallocs ~600 MB for a moment while it optimises PGlite's
 * WebAssembly, and glibc then held ~80 MB of an idle demo for good. `mallopt(M_MMAP_THRESHOLD, …)` also turns the
 * raising off (glibc's manual), as the `glibc.malloc.mmap_threshold` tunable does.
 *
 * Called in the process rather than set in the environment, so the server need not start itself a second time to
 * read it (issue 33): `npm start` calls it as the process starts (scripts/runtime-env.mjs, the earliest point: what
 * the start frees under a raised threshold stays held, ~7 MB of an idle demo), and main.ts again before the
 * embedded database opens, for a server started some other way. Resolves true once set; false where it cannot be
 * (not glibc, or koffi not installed: memory-trim.ts says so).
 */
export async function fixMmapThreshold(): Promise<boolean> {
  const libc = await loadLibc();
  return typeof libc !== 'string' && libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) === 1;
}
