import type { StreamInterest } from '../../social/stream-interest';
import type {
  GapFiller,
  SkipReason,
  StreamBatch,
  StreamCursor,
  StreamLog,
  StreamSource,
} from '../../social/stream-source';
import type { FrameReader } from './bluesky-frames';
import { RELAY_REPLAY_MS } from './bluesky-facts';
import type { RefillReport } from './bluesky-refill';
import { readRelay, StalledConnectionError, type RelayReadOptions, type RelaySink } from './bluesky-relay';
import { SkipRunLog, type SkipRunOptions } from './bluesky-skip-runs';
import { StreamThread } from './bluesky-stream-thread';
import { postMadeAt } from './bluesky-tid';

export { StalledConnectionError };

export type FirehoseOptions = {
  /** The relay (or, in tests, a PDS) serving com.atproto.sync.subscribeRepos, ws(s)://. */
  relayUrl: string;
  log: StreamLog;
  reader: FrameReader;
  /** Kept events per batch at most (default 500). */
  batchSize?: number;
  /** A partial batch (or the cursor alone) is handed on after this long (default 1 s). */
  flushMs?: number;
  /** A ping is sent this often; a connection silent for `idleTimeoutMs` (no frame, no pong) is stalled. */
  heartbeatMs?: number;
  idleTimeoutMs?: number;
  /**
   * Frames read but not handled yet at most; the socket is paused beyond (default 250, ~750 KB). Small, so a frame
   * dies young (in V8's young generation) rather than being promoted while it waits (issue 31: 2,000 made the old
   * generation churn, and its collections stalled the event loop).
   */
  maxQueuedFrames?: number;
  /** The longest the reader holds the event loop at a time, ms (default 2 in-thread, 10 in the worker). */
  sliceMs?: number;
  /**
   * Where frames are read and decoded: 'worker' (the default), a worker thread of its own, or 'inline', the
   * serving thread. The worker is used when the reader and the interest can be made there (no verifier, a namer
   * with terms); otherwise the read is inline.
   */
  thread?: 'worker' | 'inline';
  /** Batches handed on and not stored yet at most (worker); the thread stops reading beyond (default 4). */
  maxUnacked?: number;
  gapFill?: GapFiller | undefined;
  gapNote: string;
  /** Counts what was skipped (the operator's metric), each frame; each is also logged (`replayed-seq` by runs). */
  onSkip?: (reason: SkipReason) => void;
  /** When a run of `replayed-seq` skips is logged (bluesky-skip-runs.ts). */
  skipRuns?: SkipRunOptions;
  /** Counts the frames a start read again to refill the waiting room (the operator's metric; also logged). */
  onRefill?: (frames: number) => void;
};

/**
 * The Bluesky stream source: com.atproto.sync.subscribeRepos over a WebSocket, each frame read by the frame reader
 * (bluesky-frames.ts: filter before decode), kept events handed to the engine in batches with the cursor after
 * them (`{ seq, time }`); bluesky-relay.ts reads one connection. A closed, failed or stalled connection ends the
 * read with an error: the engine resumes from its stored cursor after a backoff.
 *
 * Issue 31: decoding a backlog makes some 3 KB of garbage a frame, and its collections paused the loop that serves
 * requests for up to 150 ms. So by default the connection is read in a worker thread (bluesky-stream-thread.ts,
 * bluesky-stream-serve.ts): the frames, their decoding and their garbage live in its heap, and the serving thread
 * receives only the batches of kept events. In-thread (`thread: 'inline'`, or a verifier, or a namer the thread
 * cannot rebuild), the reader works in slices so the loop still turns.
 */
export class BlueskyFirehose implements StreamSource {
  readonly name = 'Bluesky relay';
  readonly replayWindowMs = RELAY_REPLAY_MS;
  /** A post's record key is a TID: it tells when the post was made. */
  readonly postMadeAt = postMadeAt;
  readonly gapFill: GapFiller | undefined;
  readonly gapNote: string;
  /** Frames and records skipped since start, by reason. */
  readonly skipped = new Map<SkipReason, number>();
  private readonly sink: RelaySink = {
    skip: (reason, detail, seq) => this.skip(reason, detail, seq),
    info: (name, message) => this.options.log.warn({ name, message }, 'bluesky stream: relay info'),
    refilled: (report) => this.refilled(report),
  };
  private thread: StreamThread | null = null;
  private readonly replayed: SkipRunLog;

  constructor(private readonly options: FirehoseOptions) {
    this.gapFill = options.gapFill;
    this.gapNote = options.gapNote;
    this.replayed = new SkipRunLog(options.log, options.skipRuns);
  }

  async *read(
    cursor: StreamCursor | null,
    interest: StreamInterest,
    signal: AbortSignal,
    refill: StreamCursor | null = null,
  ): AsyncGenerator<StreamBatch> {
    try {
      yield* this.readConnection(cursor, interest, signal, refill);
    } finally {
      // A run of re-sent frames the connection ended in is logged now, not a quiet second later.
      this.replayed.flush();
    }
  }

  private readConnection(
    cursor: StreamCursor | null,
    interest: StreamInterest,
    signal: AbortSignal,
    refill: StreamCursor | null = null,
  ): AsyncGenerator<StreamBatch> {
    const o = this.options;
    const portable = o.reader.portable;
    if ((o.thread ?? 'worker') === 'worker' && portable && interest.movable) {
      this.thread ??= new StreamThread(portable.maxFrameBytes, this.sink);
      // Plain data only: the options cross to the thread.
      const relay: RelayReadOptions = {
        relayUrl: o.relayUrl,
        batchSize: o.batchSize,
        flushMs: o.flushMs,
        heartbeatMs: o.heartbeatMs,
        idleTimeoutMs: o.idleTimeoutMs,
        maxQueuedFrames: o.maxQueuedFrames,
        sliceMs: o.sliceMs ?? 10,
      };
      return this.thread.read(relay, o.maxUnacked ?? 4, cursor, interest, signal, refill);
    }
    return readRelay(o, o.reader, cursor, interest, signal, this.sink, refill);
  }

  /** A refill of the waiting room after a start (bluesky-refill.ts), once per read that needed one. */
  private refilled(report: RefillReport): void {
    if (report.kind === 'too-old')
      this.options.log.warn(
        report,
        'bluesky stream: the waiting room is not refilled: the relay no longer replays the oldest waiting like; reading on from the stored cursor (the refresh job heals those counts)',
      );
    else {
      this.options.onRefill?.(report.frames);
      this.options.log.info(
        report,
        `bluesky stream: waiting room refilled: ${report.frames} frames before the stored cursor read again (nothing stored), ${report.waiting} events waiting for their post`,
      );
    }
  }

  private skip(reason: SkipReason, detail: string, seq: number | null = null): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
    this.options.onSkip?.(reason);
    if (reason === 'replayed-seq') {
      this.replayed.add(seq, detail);
      return;
    }
    // Another kind of skip ends a run of re-sent frames: the log stays in the order things came.
    this.replayed.flush();
    this.options.log.warn({ reason, detail, seq }, 'bluesky stream: input skipped');
  }
}
