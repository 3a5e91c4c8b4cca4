import { monitorEventLoopDelay } from 'node:perf_hooks';

type Log = {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
};

export type EventLoopDelay = { p50Ms: number; p99Ms: number; maxMs: number };

const ms = (nanoseconds: number) => Math.round(nanoseconds / 10_000) / 100;

/**
 * Samples how late the event loop runs its timers (perf_hooks, 10 ms resolution) and logs a summary every
 * `everyMs`: at info normally, at warn when the loop stalled at least `slowMs` (a worker job or a big parse
 * holding the thread: every request waits that long). Returns the stop function.
 */
export function monitorEventLoop(log: Log, options: { everyMs: number; slowMs: number }): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const delay: EventLoopDelay = {
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
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
