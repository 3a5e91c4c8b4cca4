import type { StreamLog } from '../../social/stream-source';

export type SkipRunOptions = {
  /** A run ends after this long without another skip of it (default 1 s). */
  quietMs?: number;
  /** A run that goes on is logged at least this often, and a new one begins (default 5 s). */
  everyMs?: number;
};

type Run = { firstSeq: number | null; lastSeq: number | null; frames: number; detail: string; since: number };

/**
 * The log of frames skipped as `replayed-seq`, one line per run of them rather than one per frame. A relay that
 * restarts and re-sends what it sent before re-sends thousands of frames in a row (the faults bench: 20,000 at
 * once), and one warning each buried the log (and cost the serving thread a write each). So a run is logged once,
 * with its first and last seq and how many frames it held: when another kind of skip comes, when the read ends
 * (`flush`), after `quietMs` without one, or every `everyMs` while it goes on. The metric still counts each frame
 * (the caller counts; this is the log only).
 */
export class SkipRunLog {
  private run: Run | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly quietMs: number;
  private readonly everyMs: number;

  constructor(
    private readonly log: StreamLog,
    options: SkipRunOptions = {},
  ) {
    this.quietMs = options.quietMs ?? 1_000;
    this.everyMs = options.everyMs ?? 5_000;
  }

  /** One more frame of the run (a new run if none is open). */
  add(seq: number | null, detail: string): void {
    const now = Date.now();
    if (this.run && now - this.run.since >= this.everyMs) this.flush();
    if (this.run) {
      this.run.lastSeq = seq;
      this.run.frames++;
    } else this.run = { firstSeq: seq, lastSeq: seq, frames: 1, detail, since: now };
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.quietMs);
    // A quiet run must not hold the process open.
    this.timer.unref?.();
  }

  /** Logs the open run, if any (the run ends). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = this.run;
    if (!run) return;
    this.run = null;
    this.log.warn(
      {
        reason: 'replayed-seq',
        firstSeq: run.firstSeq,
        lastSeq: run.lastSeq,
        frames: run.frames,
        // The first frame's: the seq already handed on that the run came at or before.
        detail: run.detail,
      },
      'bluesky stream: input skipped',
    );
  }
}
