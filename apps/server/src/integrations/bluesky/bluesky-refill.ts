import type { ReadPosition, StreamInterest } from '../../social/stream-interest';
import type { StreamCursor } from '../../social/stream-source';
import { RELAY_REPLAY_MS } from './bluesky-facts';

/** What a refill did, for the log: read again from `asked` (exclusive) through `through`, or not (`too-old`). */
export type RefillReport =
  | {
      kind: 'refilled';
      /** The cursor asked of the relay: the oldest waiting like's seq - 1. */
      asked: number;
      through: number;
      /** Frames read again (the relay's first one: `first`; later than `asked` + 1 if it no longer had those). */
      frames: number;
      first: number | null;
      /** Events waiting for their post afterwards. */
      waiting: number;
    }
  | { kind: 'too-old'; seq: number; time: string | null; through: number };

/** The frames to read again before the stored cursor: after `from` through `through` (the cursor's seq). */
export type RefillRange = { from: number; through: number; time: string | null };

/**
 * Whether to refill the waiting room before reading on from `cursor`: when the stored `refill` (where the oldest
 * like still waiting was read when the cursor was stored) lies before it and this interest has not read that far
 * (a new process, a new worker thread; a read again after a failure in the same one has its waiting room). Not
 * when the relay no longer replays that seq (its time older than RELAY_REPLAY_MS): then reported once, and the
 * stream reads on from the cursor (the refresh job heals those counts).
 */
export function refillRange(
  cursor: StreamCursor | null,
  refill: StreamCursor | null,
  interest: StreamInterest,
  sink: { refilled(report: RefillReport): void },
): RefillRange | null {
  if (typeof cursor?.seq !== 'number' || typeof refill?.seq !== 'number') return null;
  const from = Math.max(refill.seq - 1, interest.readThrough);
  if (from >= cursor.seq) return null;
  const time = typeof refill.time === 'string' ? refill.time : null;
  if (time && Date.now() - Date.parse(time) > RELAY_REPLAY_MS) {
    // Given up: this interest does not try (nor report) again.
    interest.readThrough = Math.max(interest.readThrough, cursor.seq);
    sink.refilled({ kind: 'too-old', seq: refill.seq, time, through: cursor.seq });
    return null;
  }
  return { from, through: cursor.seq, time: cursor.time ?? null };
}

/**
 * One read's refill (bluesky-relay.ts): the frames after `range.from` through `range.through` go to the interest
 * only (it dates back what begins to wait and keeps no releases: StreamInterest.refill); none is handed on, counted
 * as skipped or moved to. It ends with the stored cursor's frame, or the first frame after it (the relay may no
 * longer have that one).
 */
export class Refill {
  private active: boolean;
  private frames = 0;
  /** Every frame with a seq taken so far, re-sends included: at most the range's width (see absorbs). */
  private absorbed = 0;
  private first: number | null = null;

  constructor(
    readonly range: RefillRange | null,
    private readonly interest: StreamInterest,
    private readonly sink: { refilled(report: RefillReport): void },
  ) {
    this.active = range !== null;
    const through: ReadPosition | null = range && { position: range.through, time: range.time };
    interest.refill(through);
  }

  /** The seq the refill reaches: a frame at or before it, read after the refill, is a re-send. */
  get through(): number {
    return this.range?.through ?? -Infinity;
  }

  /** Whether the frame read (its seq; `last`: the newest seq read before) belongs to the refill. */
  absorbs(seq: number | null, last: number): boolean {
    if (!this.active || !this.range) return false;
    if (seq !== null && seq > this.range.through) {
      this.finish();
      return false;
    }
    // A relay whose seqs started again lower (a new relay, a reset) may never reach the stored cursor: without a
    // bound its new events would be taken as the refill's for good and the stream would seem stuck. Past as many
    // frames as the range holds seqs, the refill ends and the frame is read as any other (at or before the stored
    // cursor: skipped as a re-send, as before refills existed).
    if (seq !== null && ++this.absorbed > this.range.through - this.range.from) {
      this.finish();
      return false;
    }
    if (seq !== null && seq > last) {
      this.frames++;
      this.first ??= seq;
    }
    if (seq !== null && seq === this.range.through) this.finish();
    return true;
  }

  /** The read ended (stopped, failed): a refill not finished is left (the next read goes on from readThrough). */
  end(): void {
    if (!this.active) return;
    this.active = false;
    this.interest.refill(null);
  }

  private finish(): void {
    if (!this.active || !this.range) return;
    this.active = false;
    this.interest.refill(null);
    this.sink.refilled({
      kind: 'refilled',
      asked: this.range.from,
      through: this.range.through,
      frames: this.frames,
      first: this.first,
      waiting: this.interest.size.waiting,
    });
  }
}
