import { setImmediate as nextTurn } from 'node:timers/promises';
import WebSocket from 'ws';
import type { StreamInterest } from '../../social/stream-interest';
import type {
  GapFiller,
  SkipReason,
  StreamBatch,
  StreamCursor,
  StreamLog,
  StreamSource,
} from '../../social/stream-source';
import { FrameBatch } from './bluesky-batch';
import { FrameQueue } from './bluesky-frame-queue';
import type { FrameReader, FrameResult } from './bluesky-frames';
import { RELAY_REPLAY_MS } from './bluesky-facts';
import { postMadeAt } from './bluesky-tid';

/** The socket refuses a message larger than this (memory's bound); the reader skips smaller oversized frames. */
const SOCKET_MAX_PAYLOAD = 64 * 1024 * 1024;

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
  /** The longest the reader holds the event loop at a time, ms (default 2); it then lets it turn once. */
  sliceMs?: number;
  gapFill?: GapFiller | undefined;
  gapNote: string;
  /** Counts what was skipped (the operator's metric); each is also logged. */
  onSkip?: (reason: SkipReason) => void;
};

/** Thrown when the relay goes silent without closing the connection. */
export class StalledConnectionError extends Error {
  override readonly name = 'StalledConnectionError';
}

/**
 * The Bluesky stream source: com.atproto.sync.subscribeRepos over a WebSocket, each frame read by the frame reader
 * (bluesky-frames.ts: filter before decode), kept events handed to the engine in batches with the cursor after
 * them (`{ seq, time }`). Frames wait in a bounded queue (the socket is paused when it is full), so a slow database
 * holds the relay rather than memory. A closed, failed or stalled connection (no frame and no pong for
 * `idleTimeoutMs`) ends the read with an error: the engine resumes from its stored cursor after a backoff.
 *
 * The reader shares the event loop with the requests (issue 31): in a backlog, frames are always queued, and most
 * concern nobody, so no batch and no wait would ever let the loop turn. So the reader works in slices of at most
 * `sliceMs` and then yields one turn of the loop (setImmediate: timers, I/O, requests waiting run first). A slice
 * costs nothing to the order of frames or the cursor: the batch simply waits in memory meanwhile.
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

  constructor(private readonly options: FirehoseOptions) {
    this.gapFill = options.gapFill;
    this.gapNote = options.gapNote;
  }

  async *read(
    cursor: StreamCursor | null,
    interest: StreamInterest,
    signal: AbortSignal,
  ): AsyncGenerator<StreamBatch> {
    const o = this.options;
    const url = new URL('/xrpc/com.atproto.sync.subscribeRepos', o.relayUrl);
    if (typeof cursor?.seq === 'number') url.searchParams.set('cursor', String(cursor.seq));
    const socket = new WebSocket(url, { maxPayload: SOCKET_MAX_PAYLOAD });
    const queue = new FrameQueue(socket, o.maxQueuedFrames ?? 250);
    const idle = o.idleTimeoutMs ?? 60_000;
    const heartbeat = setInterval(
      () => {
        if (Date.now() - queue.activeAt > idle) {
          this.skip('stalled-connection', `no frame and no pong for ${idle} ms`);
          queue.fail(new StalledConnectionError(`the relay went silent for ${idle} ms`));
          socket.terminate();
        } else if (socket.readyState === WebSocket.OPEN) socket.ping();
      },
      o.heartbeatMs ?? Math.min(30_000, idle / 3),
    );
    const onAbort = () => queue.wake();
    signal.addEventListener('abort', onAbort, { once: true });
    const batchSize = o.batchSize ?? 500;
    const flushMs = o.flushMs ?? 1_000;
    const sliceMs = o.sliceMs ?? 2;
    const batch = new FrameBatch();
    // Every frame handed on must come after the cursor asked from and after the frame before it. A relay may send
    // one again (the PDS's own outbox re-sends the frame at the cursor when its sequencer is slow to see it) or
    // send a seq that goes back; such a frame is skipped and counted, never stored twice or moved back to.
    let last = typeof cursor?.seq === 'number' ? cursor.seq : -Infinity;
    let sliceStart = performance.now();
    try {
      while (!signal.aborted) {
        if (performance.now() - sliceStart >= sliceMs) {
          await nextTurn();
          sliceStart = performance.now();
          continue;
        }
        const frame = queue.next();
        if (!frame) {
          if (queue.failure) throw queue.failure;
          if (batch.due(Infinity, flushMs)) yield batch.take();
          else {
            await queue.waitFor(batch.pending ? flushMs - batch.age : flushMs);
            sliceStart = performance.now();
          }
          continue;
        }
        const pending = o.reader.read(frame, interest);
        const result = pending instanceof Promise ? await pending : pending;
        const seq = result.kind === 'events' || result.kind === 'skip' ? result.seq : null;
        if (seq !== null && seq <= last) {
          this.skip('replayed-seq', `seq ${seq} comes at or before seq ${last}, already handed on`, seq);
          continue;
        }
        if (seq !== null) last = seq;
        const at = this.handle(result);
        if (at) batch.add(at, result.kind === 'events' ? result.events : []);
        if (batch.due(batchSize, flushMs)) yield batch.take();
      }
    } finally {
      clearInterval(heartbeat);
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
    }
  }

  /** Logs and counts what was skipped; the frame's position when the cursor moves past it. */
  private handle(result: FrameResult): { seq: number; time: string | null } | null {
    switch (result.kind) {
      case 'events':
        for (const detail of result.malformed) this.skip('malformed-record', detail, result.seq);
        return { seq: result.seq, time: result.time };
      case 'skip':
        this.skip(result.reason, result.detail, result.seq);
        return result.seq === null ? null : { seq: result.seq, time: result.time };
      case 'info':
        this.options.log.warn({ name: result.name, message: result.message }, 'bluesky stream: relay info');
        return null;
      case 'error':
        throw new Error(`the relay answered ${result.name}: ${result.message}`);
    }
  }

  private skip(reason: SkipReason, detail: string, seq: number | null = null): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
    this.options.onSkip?.(reason);
    this.options.log.warn({ reason, detail, seq }, 'bluesky stream: input skipped');
  }
}
