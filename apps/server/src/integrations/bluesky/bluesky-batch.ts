import type { ReadPosition } from '../../social/stream-interest';
import type { StreamBatch, StreamEvent } from '../../social/stream-source';

/**
 * The Bluesky source's batching (also the bench's in-memory source): frames read, each with its position, gathered
 * into a StreamBatch of the kept events and the cursor after the last frame. A frame without a time (an unknown
 * kind) keeps the time of the one before, so the cursor's time stays known.
 */
export class FrameBatch {
  private events: StreamEvent[] = [];
  private seen = 0;
  private last: { seq: number; time: string | null } | null = null;
  private startedAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  /** A frame read at `at`, with the events the programme keeps of it (often none). */
  add(at: { seq: number; time: string | null }, events: readonly StreamEvent[]): void {
    this.seen++;
    this.last = { seq: at.seq, time: at.time ?? this.last?.time ?? null };
    for (const e of events) this.events.push(e);
  }

  /** Whether a frame was read since the last batch. */
  get pending(): boolean {
    return this.seen > 0;
  }

  /** ms since the last batch was taken (or since the start). */
  get age(): number {
    return this.now() - this.startedAt;
  }

  /** Time to hand on a batch: `batchSize` kept events, or a frame read and `flushMs` passed. */
  due(batchSize: number, flushMs: number): boolean {
    return this.pending && (this.events.length >= batchSize || this.age >= flushMs);
  }

  /** The batch; `waiting`: where the oldest event still waiting for its post was read (StreamInterest.oldestWaiting). */
  take(waiting?: ReadPosition | null): StreamBatch {
    const last = this.last;
    const batch: StreamBatch = {
      events: this.events,
      cursor: last?.time ? { seq: last.seq, time: last.time } : { seq: last?.seq },
      cursorTime: last?.time ? new Date(last.time) : null,
      seen: this.seen,
      ...(waiting !== undefined ? { waiting: waiting && cursorOf(waiting) } : {}),
    };
    this.events = [];
    this.seen = 0;
    this.startedAt = this.now();
    return batch;
  }
}

const cursorOf = (read: ReadPosition) =>
  read.time ? { seq: read.position, time: read.time } : { seq: read.position };
