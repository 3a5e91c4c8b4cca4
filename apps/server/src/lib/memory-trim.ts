import { performance } from 'node:perf_hooks';
import { loadLibc } from './libc';

/**
 * Gives memory back to the system when the server goes quiet (issue 23), checked every few seconds:
 *
 * - **The JavaScript heap, once after each busy spell.** V8 grows its young generation during a burst of
 *   allocation (the start, a minute of load) and keeps those pages; its memory reducer gives them back only once
 *   allocation has stayed low, which the demo's own worker never lets happen (a demo restarted on its data held
 *   ~45 MB of them at idle). So the first check after the start that finds the event loop quiet, and after a later
 *   busy spell the check that finds it quiet for a minute, runs V8's "last resort" collection, the one it runs
 *   itself when memory is short: it shrinks the young generation and releases the pooled pages. It takes ~0.1 s
 *   of the main thread, only when the loop was nearly idle. It needs the gc extension under the name
 *   `GC_FUNCTION` (scripts/runtime-env.mjs starts the server with it); without it this part is skipped. A full
 *   collection must not cost the requests after it: main.ts pins Node's nextTick shape first (tick-shape.ts), and
 *   the server keeps its last request and response of each kind (request-shapes.ts).
 * - **The C heap's free pages**, at every check (glibc's `malloc_trim(0)`), below.
 *
 * glibc returns freed memory at the top of its main heap only. What the start and the demo's replay allocate and
 * free on the main thread (parsing and compiling the code, reading files, PGlite's start) leaves free holes between
 * blocks still in use, resident for good: measured on an idle demo, the main heap held 38 MB of which 10 MB were in
 * use. `malloc_trim(0)` releases every whole free page inside it too (madvise), in about a millisecond.
 *
 * Node has no binding for it, so it is called through koffi (libc.ts). Off glibc (macOS, musl, Windows), or when
 * koffi is not installed (an optional dependency), there is nothing to call and this does nothing.
 */
export type MemoryTrim = {
  /** Trims now; true when glibc gave memory back, false when it had none to give, null when unavailable. */
  trim: () => boolean | null;
  /** Runs one check now (what the timer does): settles the heap if it was busy and is quiet, then trims. */
  check: () => void;
  stop: () => void;
};

/** The name scripts/runtime-env.mjs exposes V8's gc extension under (`--expose-gc-as`). */
export const GC_FUNCTION = '__manaboardGc';

/** The event loop's utilisation over a check above which the server counts as busy, and below which as quiet. */
const BUSY = 0.2;
const QUIET = 0.05;

/** V8's gc extension, as `--expose-gc-as` installs it. */
export type GcExtension = (options: {
  type: 'major' | 'minor';
  execution: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

type Log = { info: (details: object, message: string) => void };

/**
 * Checks every `everyMs` (0: never; `check()` and `trim()` still work), from a timer that keeps no process alive.
 * The heap is settled at the first quiet check after the start, and later only once the loop has stayed quiet for
 * `settleAfterQuietMs` after a busy spell: a pause between bursts of load is no reason to throw away the young
 * generation the next burst grows again (in the interleaved benchmark, settling in each 4-s pause cost the reads
 * about a tenth). Says once, at info, when it cannot trim here; `log` also hears of each settled heap, at debug.
 */
export async function startMemoryTrim(
  log: Log & { debug?: (details: object, message: string) => void },
  everyMs: number,
  settleAfterQuietMs = 60_000,
): Promise<MemoryTrim> {
  const libc = await loadLibc();
  if (typeof libc === 'string' && everyMs > 0) {
    log.info({ reason: libc }, 'memory: freed native memory is not trimmed here');
  }
  const trim = typeof libc === 'string' ? () => null : () => libc.mallocTrim(0) === 1;
  const gc = (globalThis as Record<string, unknown>)[GC_FUNCTION] as GcExtension | undefined;
  // The start itself is a busy spell, settled as soon as the loop is quiet.
  let starting = true;
  let busy = true;
  let quietSince: number | undefined;
  let last = performance.eventLoopUtilization();
  let lastAt = performance.now();
  const check = () => {
    const now = performance.eventLoopUtilization();
    const utilisation = performance.eventLoopUtilization(now, last).utilization;
    const windowStart = lastAt;
    last = now;
    lastAt = performance.now();
    if (utilisation >= BUSY) {
      busy = true;
      quietSince = undefined;
    } else if (utilisation < QUIET) {
      quietSince ??= windowStart;
    } else {
      quietSince = undefined;
    }
    const quietLongEnough = quietSince !== undefined && lastAt - quietSince >= settleAfterQuietMs;
    if (gc && busy && quietSince !== undefined && (starting || quietLongEnough)) {
      const started = performance.now();
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      starting = false;
      busy = false;
      // The collection's own time is not the next check's business.
      last = performance.eventLoopUtilization();
      lastAt = performance.now();
      log.debug?.({ ms: Math.round(lastAt - started) }, 'memory: heap settled after a busy spell');
    }
    trim();
  };
  const timer = everyMs > 0 ? setInterval(check, everyMs) : undefined;
  timer?.unref();
  return { trim, check, stop: () => clearInterval(timer) };
}
