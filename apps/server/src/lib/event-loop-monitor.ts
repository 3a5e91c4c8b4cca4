import { monitorEventLoopDelay } from 'node:perf_hooks';

type Log = {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
};

export type EventLoopDelay = { p50Ms: number; p99Ms: number; maxMs: number };

const RESOLUTION_MS = 10;

/** The histogram holds the time between its timer's runs: minus the resolution, that is the delay. */
const delayMs = (nanoseconds: number) => Math.max(0, Math.round(nanoseconds / 10_000) / 100 - RESOLUTION_MS);

/**
 * Samples how late the event loop runs its timers (perf_hooks, 10 ms resolution) and logs a summary every
 * `everyMs`: at info normally, at warn when the loop stalled at least `slowMs` (a worker job or a big parse
 * holding the thread: every request waits that long). Returns the stop function.
 */
export function monitorEventLoop(log: Log, options: { everyMs: number; slowMs: number }): () => void {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const timer = setInterval(() => {
    const delay: EventLoopDelay = {
      p50Ms: delayMs(histogram.percentile(50)),
      p99Ms: delayMs(histogram.percentile(99)),
      maxMs: delayMs(histogram.max),
    };
    histogram.reset();
    const details = { eventLoopDelay: delay, windowSeconds: options.everyMs / 1000 };
    if (delay.maxMs >= options.slowMs) log.warn(details, 'event loop stalled');
    else log.info(details, 'event loop delay');
  }, options.everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
