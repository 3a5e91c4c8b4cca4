import { setImmediate as nextTurn } from 'node:timers/promises';
import WebSocket from 'ws';
import type { StreamInterest } from '../../social/stream-interest';
import type { SkipReason, StreamBatch, StreamCursor } from '../../social/stream-source';
import { FrameBatch } from './bluesky-batch';
import { FrameQueue } from './bluesky-frame-queue';
import type { FrameReader, FrameResult } from './bluesky-frames';
import { Refill, refillRange, type RefillReport } from './bluesky-refill';

/** The socket refuses a message larger than this (memory's bound); the reader skips smaller oversized frames. */
const SOCKET_MAX_PAYLOAD = 64 * 1024 * 1024;

/** Thrown when the relay goes silent without closing the connection. */
export class StalledConnectionError extends Error {
  override readonly name = 'StalledConnectionError';
}

/** How the relay is read (FirehoseOptions has each one's meaning and default). */
export type RelayReadOptions = {
  relayUrl: string;
  batchSize?: number | undefined;
  flushMs?: number | undefined;
  heartbeatMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
  maxQueuedFrames?: number | undefined;
  sliceMs?: number | undefined;
};

/** Where the read reports what it skipped, the relay's informational messages, and a refill (bluesky-refill.ts). */
export type RelaySink = {
  skip(reason: SkipReason, detail: string, seq: number | null): void;
  info(name: string, message: string): void;
  refilled(report: RefillReport): void;
};

/**
 * One connection to the relay's subscribeRepos from `cursor`, read until `signal` aborts (or it fails): each frame
 * read by the frame reader against `interest`, the kept events gathered into batches with the cursor after them.
 * Run by the firehose in the serving thread (`thread: 'inline'`) or in its worker thread (bluesky-stream-serve.ts).
 *
 * Frames wait in a bounded queue (the socket is paused when it is full), so a consumer that does not ask for the
 * next batch holds the relay rather than memory. A closed, failed or stalled connection (no frame and no pong for
 * `idleTimeoutMs`) ends the read with an error. The read works in slices of at most `sliceMs` and then yields one
 * turn of the loop (setImmediate: timers, I/O, requests or messages waiting run first): in a backlog frames are
 * always queued, and most concern nobody, so no batch and no wait would ever let the loop turn.
 */
export async function* readRelay(
  o: RelayReadOptions,
  reader: FrameReader,
  cursor: StreamCursor | null,
  interest: StreamInterest,
  signal: AbortSignal,
  sink: RelaySink,
  refill: StreamCursor | null = null,
): AsyncGenerator<StreamBatch> {
  // A new process's waiting room is refilled first: read from the oldest waiting like, not stored again.
  const refilling = new Refill(refillRange(cursor, refill, interest, sink), interest, sink);
  const from = refilling.range ? refilling.range.from : cursor?.seq;
  const url = new URL('/xrpc/com.atproto.sync.subscribeRepos', o.relayUrl);
  if (typeof from === 'number') url.searchParams.set('cursor', String(from));
  const socket = new WebSocket(url, { maxPayload: SOCKET_MAX_PAYLOAD });
  const queue = new FrameQueue(socket, o.maxQueuedFrames ?? 250);
  const idle = o.idleTimeoutMs ?? 60_000;
  const heartbeat = setInterval(
    () => {
      if (Date.now() - queue.activeAt > idle) {
        sink.skip('stalled-connection', `no frame and no pong for ${idle} ms`, null);
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
  let last = typeof from === 'number' ? from : -Infinity;
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
        if (batch.due(Infinity, flushMs)) yield batch.take(interest.oldestWaiting());
        else {
          await queue.waitFor(batch.pending ? flushMs - batch.age : flushMs);
          sliceStart = performance.now();
        }
        continue;
      }
      const pending = reader.read(frame, interest);
      const result = pending instanceof Promise ? await pending : pending;
      const seq = result.kind === 'events' || result.kind === 'skip' ? result.seq : null;
      if (refilling.absorbs(seq, last)) {
        // Read again only to refill the waiting room: stored before, so nothing of it is handed on or counted.
        if (result.kind === 'info' || result.kind === 'error') position(result, sink);
        if (seq !== null) last = Math.max(last, seq);
        continue;
      }
      // Past the refill, whatever lies at or before the stored cursor is a re-send.
      last = Math.max(last, refilling.through);
      if (seq !== null && seq <= last) {
        sink.skip('replayed-seq', `seq ${seq} comes at or before seq ${last}, already handed on`, seq);
        continue;
      }
      if (seq !== null) last = seq;
      const at = position(result, sink);
      if (at) batch.add(at, result.kind === 'events' ? result.events : []);
      if (batch.due(batchSize, flushMs)) yield batch.take(interest.oldestWaiting());
    }
  } finally {
    refilling.end();
    clearInterval(heartbeat);
    signal.removeEventListener('abort', onAbort);
    socket.removeAllListeners();
    socket.on('error', () => undefined);
    socket.terminate();
  }
}

/** Reports what was skipped; the frame's position when the cursor moves past it. */
function position(result: FrameResult, sink: RelaySink): { seq: number; time: string | null } | null {
  switch (result.kind) {
    case 'events':
      for (const detail of result.malformed) sink.skip('malformed-record', detail, result.seq);
      return { seq: result.seq, time: result.time };
    case 'skip':
      sink.skip(result.reason, result.detail, result.seq);
      return result.seq === null ? null : { seq: result.seq, time: result.time };
    case 'info':
      sink.info(result.name, result.message);
      return null;
    case 'error':
      throw new Error(`the relay answered ${result.name}: ${result.message}`);
  }
}
