import type { PortableInterest } from '../../social/stream-interest';
import type { SkipReason, StreamBatch, StreamCursor } from '../../social/stream-source';
import type { RefillReport } from './bluesky-refill';
import type { RelayReadOptions } from './bluesky-relay';

/** What the stream's worker thread is started with (workerData). */
export type WorkerStart = {
  interest: PortableInterest;
  maxFrameBytes: number;
  /** The thread's nice value (bluesky-stream-thread.ts, STREAM_THREAD_NICE). */
  nice: number;
};

/** Messages from the serving thread to the stream's worker thread (bluesky-stream-serve.ts). */
export type ToWorker =
  | {
      type: 'read';
      id: number;
      cursor: StreamCursor | null;
      /** Where to refill the thread's waiting room from (StreamSource.read). */
      refill: StreamCursor | null;
      options: RelayReadOptions;
      maxUnacked: number;
    }
  /** Batch `n` was stored: the worker may read on. */
  | { type: 'ack'; id: number; n: number }
  /** The read `id` ends (the consumer failed or stopped it): its connection is closed, the thread stays. */
  | { type: 'stop'; id: number }
  /** The thread ends (the job stopped). */
  | { type: 'close' }
  /** The engine loaded a snapshot while batches after `through` were not stored yet. */
  | { type: 'load'; interest: PortableInterest; through: number }
  | { type: 'add'; tracked: string[]; people: string[] };

/** What the read skipped and the relay's informational messages, reported with the batch or error that follows. */
export type Note =
  | { type: 'skip'; reason: SkipReason; detail: string; seq: number | null }
  | { type: 'info'; name: string; message: string }
  | { type: 'refill'; report: RefillReport };

/**
 * Messages from the stream's worker thread, in the order it read. Notes travel with them (never alone), so the
 * thread's messages are bounded by the batches not acknowledged, whatever the stream skips.
 */
export type FromWorker =
  | { type: 'batch'; id: number; n: number; batch: StreamBatch; notes: Note[] }
  | {
      type: 'error';
      id: number;
      name: string;
      message: string;
      stack: string | undefined;
      notes: Note[];
    };
