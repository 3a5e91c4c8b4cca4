/** How long after the stream stored a batch the totals job runs (every batch meanwhile shares that run). */
export const TOTALS_AFTER_STREAM_MS = 1_000;

/**
 * Totals soon after the stream stores something (Bluesky): the schedule runs totals once a minute, which suits
 * polling, but on a stream a like is stored within a second and should reach the board within seconds, not at the
 * next minute's run. Each request starts at most one timer; every request until it fires shares that run, so a
 * busy stream runs totals at most once per `delayMs` plus the run's own time (totals are incremental: only the
 * authors the stream touched are recomputed). The leader alone requests (it alone streams); `run` decides whether
 * the worker may run now (not while the operator paused it).
 */
export class TotalsSoon {
  private timer: NodeJS.Timeout | undefined;
  private active = false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly delayMs = TOTALS_AFTER_STREAM_MS,
  ) {}

  start(): void {
    this.active = true;
  }

  /** A batch was stored: totals run within `delayMs` (or with the run already asked for). */
  request(): void {
    if (!this.active || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, this.delayMs);
    this.timer.unref();
  }

  /** No run after this (leadership lost, the worker stopping); a run under way finishes in the worker's queue. */
  stop(): void {
    this.active = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
