import type { Db } from '../db/schema';
import { writeProgress } from '../modules/stream-progress/stream-progress.repository';
import { StreamTenths } from '../modules/stream-progress/stream-catch-up';
import { readingOf, type StreamReading } from '../modules/stream-progress/stream-progress.service';
import type { JobLog } from './job';
import type { StreamProgressReport } from './stream-progress-report';

export type StreamProgressOptions = {
  db: Db;
  log: JobLog;
  /** The stream's name in the progress row and the log (e.g. the network's). */
  source: string;
  /** How long the source replays from a cursor (the adapter knows; null: unknown). */
  replayWindowMs: number | null;
  /** Above this lag the stream is behind (READY_STREAM_MAX_LAG_SECONDS); 0: no behind/caught-up log lines. */
  maxLagSeconds: number;
  /** Wall clock (tests move it). */
  now?: () => number;
  /** How often the progress row is written while started (default 5 s). */
  persistEveryMs?: number;
  /** The span the rates are averaged over (default 30 s). */
  rateWindowMs?: number;
};

type Bucket = { second: number; seen: number; stored: number };

/**
 * The consumer of the engine's stream progress reports (`report`, the stream job's `onProgress`): keeps the lag
 * and the read and store rates of the last half minute in memory (for this process's /metrics), logs once when
 * the lag passes the bound and once when it is back under half of it, and, while started, writes a progress row
 * every few seconds so an API process that is not the worker can show lag, rates and the replay window left.
 * `report` does no I/O: the stream loop never waits on it.
 */
export class StreamProgressReporter {
  private buckets: Bucket[] = [];
  private readonly tenths: StreamTenths;
  private cursorTime: Date | null = null;
  private seenTotal = 0;
  private storedTotal = 0;
  private reports = 0;
  private since: number;
  private behindSince: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly windowMs: number;

  constructor(private readonly options: StreamProgressOptions) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.rateWindowMs ?? 30_000;
    this.since = this.now();
    this.tenths = new StreamTenths(this.since);
  }

  /** One stored batch (or cursor-only save) of the stream loop. */
  report(report: StreamProgressReport): void {
    const second = Math.floor(report.at.getTime() / 1000);
    const last = this.buckets.at(-1);
    if (last && last.second === second) {
      last.seen += report.seen;
      last.stored += report.stored;
    } else {
      this.buckets.push({ second, seen: report.seen, stored: report.stored });
    }
    this.prune();
    this.tenths.add(report.at.getTime(), report.stored, report.cursorTime);
    if (report.cursorTime) this.cursorTime = report.cursorTime;
    this.seenTotal += report.seen;
    this.storedTotal += report.stored;
    this.reports++;
    this.checkLag();
  }

  /** Whether any report arrived since this reporter was made. */
  get hasReports(): boolean {
    return this.reports > 0;
  }

  /** The lag, rates and replay window left as of now, with this process's totals. */
  reading(): StreamReading {
    const now = this.now();
    this.prune();
    // Averaged over the window, or over the time since start when that is shorter (at least a second).
    const span = Math.max(1_000, Math.min(this.windowMs, now - this.since)) / 1000;
    const sum = (key: 'seen' | 'stored') => this.buckets.reduce((total, b) => total + b[key], 0);
    return {
      ...readingOf(
        {
          source: this.options.source,
          cursorTime: this.cursorTime,
          seenPerSecond: sum('seen') / span,
          storedPerSecond: sum('stored') / span,
          replayWindowSeconds:
            this.options.replayWindowMs === null ? null : Math.round(this.options.replayWindowMs / 1000),
          reportedAt: new Date(now),
          storedTenths: this.tenths.tenths(now),
          cursorGain: this.tenths.gain(now),
        },
        new Date(now),
        this.options.maxLagSeconds,
      ),
      totals: { seen: this.seenTotal, stored: this.storedTotal },
    };
  }

  /**
   * Logs the crossings of the bound: behind when the lag passes it, caught up when it is back under half of it
   * (so a lag hovering at the bound does not log every batch). Also run by the timer: a stalled stream sends
   * no report while its lag grows.
   */
  checkLag(): void {
    const bound = this.options.maxLagSeconds;
    const { lagSeconds, replayWindowLeftSeconds, storedPerSecond } = this.reading();
    if (bound <= 0 || lagSeconds === null) return;
    const source = this.options.source;
    if (this.behindSince === null && lagSeconds > bound) {
      this.behindSince = this.now();
      this.options.log.warn(
        { stream: source, lagSeconds, maxLagSeconds: bound, replayWindowLeftSeconds, storedPerSecond },
        `stream: ${source} is behind: ${lagSeconds} s behind the network (bound ${bound} s)`,
      );
    } else if (this.behindSince !== null && lagSeconds <= bound / 2) {
      const behindForSeconds = Math.round((this.now() - this.behindSince) / 1000);
      this.behindSince = null;
      this.options.log.info(
        { stream: source, lagSeconds, behindForSeconds, storedPerSecond },
        `stream: ${source} caught up: ${lagSeconds} s behind the network after ${behindForSeconds} s behind`,
      );
    }
  }

  /** Writes the progress row every few seconds (and checks the lag) until stopped. */
  start(): void {
    if (this.timer) return;
    this.since = this.now();
    this.tenths.restart(this.since);
    this.timer = setInterval(() => {
      this.checkLag();
      void this.persist();
    }, this.options.persistEveryMs ?? 5_000);
    this.timer.unref();
  }

  /** Stops the timer after a last write. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.persist();
  }

  /** Writes the progress row now (one write at a time); a failure is logged, the next tick writes again. */
  persist(): Promise<void> {
    const next = this.writing.then(async () => {
      if (!this.hasReports) return;
      const reading = this.reading();
      await writeProgress(this.options.db, {
        source: this.options.source,
        reported_at: reading.reportedAt ?? new Date(this.now()),
        cursor_time: reading.cursorTime,
        seen_per_second: reading.seenPerSecond ?? 0,
        stored_per_second: reading.storedPerSecond ?? 0,
        replay_window_seconds: reading.replayWindowSeconds,
        stored_tenths: reading.storedTenths,
        cursor_gain: this.tenths.gain(this.now()),
      }).catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'stream: progress not stored; next try in a few seconds'),
      );
    });
    this.writing = next;
    return next;
  }

  private prune(): void {
    const oldest = Math.floor((this.now() - this.windowMs) / 1000);
    while (this.buckets.length > 0 && (this.buckets[0]?.second ?? 0) <= oldest) this.buckets.shift();
  }
}
