import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock';
import type { Database } from '../db/schema';
import { readState } from '../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../modules/mana/stream-events';
import type { StreamIngest } from '../modules/mana/stream-ingest.service';
import type { StreamCursor, StreamSource } from '../social/stream-source';
import type { JobLog } from './job';
import type { StreamProgressReport } from './stream-progress-report';
import { StreamGaps } from './stream-gap';
import { StreamStore } from './stream-store';

export type StreamJobDeps = {
  db: Kysely<Database>;
  ingest: StreamIngest;
  source: StreamSource;
  log: JobLog;
  clock: Clock;
  /** One report per stored batch or cursor-only save (lag and rate for the operator). */
  onProgress?: (report: StreamProgressReport) => void;
  /** Longest wait between retries after a failure (default 60 s). */
  maxBackoffMs?: number;
  /** A cursor with no stored events is saved at most this often (default 1 s). */
  cursorEveryMs?: number;
  /** The in-memory interest is read again from the database this often (default 10 min). */
  interestEveryMs?: number;
};

/**
 * The engine's stream loop (the worker leader's, started with leadership): reads the stored cursor, asks the
 * network's source (social/stream-source.ts) for batches from it, and stores each batch with its cursor in ONE
 * transaction (StreamIngest), so a crash never loses or repeats what was stored. A batch whose events all concern
 * nobody costs no transaction: its cursor is saved at most once a second (a crash then reads at most a second
 * again, which changes nothing). What the programme cares about is kept in memory (StreamInterest) so the source
 * drops the rest before decoding it fully.
 *
 * On any failure (the source's connection, the database) the loop logs it, records it in ingest_state (job
 * `stream`), waits (1 s, doubling, at most `maxBackoffMs`) and starts again from the stored cursor. A stored cursor
 * older than the source replays is a gap (stream-gap.ts).
 */
export class StreamJob {
  private running = false;
  private abort = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private readonly store: StreamStore;
  private readonly gaps: StreamGaps;

  constructor(private readonly deps: StreamJobDeps) {
    this.store = new StreamStore(deps);
    this.gaps = new StreamGaps({
      ...deps,
      record: (message) => this.store.record(message),
      store: this.store.storeFound,
    });
  }

  /** The cursor of the newest stored batch. */
  get cursor(): StreamCursor {
    return { ...this.store.stored };
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Settles once the gap fill this start began (if any) has ended. */
  get gapFilled(): Promise<unknown> {
    return this.gaps.filling;
  }

  /** Resolves once a stored cursor satisfies `reached` (tests wait on it). */
  storedUntil(reached: (cursor: StreamCursor) => boolean): Promise<void> {
    return this.store.storedUntil(reached);
  }

  /** Starts reading from the stored cursor (the live end when there is none); a gap is reported before it returns. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.store.active = true;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    try {
      const start = await this.prepare(signal);
      this.loop = this.run(signal, 0, null, start);
    } catch (error) {
      this.loop = this.run(signal, 1, error);
    }
  }

  /** Stops reading: the batch being stored finishes; what the source read but no batch stored is read again later. */
  async stop(): Promise<void> {
    this.running = false;
    this.store.active = false;
    this.abort.abort();
    this.store.drop();
    await this.loop;
    await this.store.settled();
    // What the source released from the waiting room into a batch not stored waits again (a start reads again).
    this.store.interest.rewind();
    await this.gaps.stop();
  }

  /**
   * Reads the stored cursor (and where the oldest like waiting for its post was read then, to refill the waiting
   * room from: a process that died lost it), reports a gap, loads the interest.
   */
  private async prepare(signal: AbortSignal): Promise<ReadStart> {
    const state = await readState(this.deps.db, STREAM_JOB);
    const stored = (state?.cursor ?? {}) as StreamCursor;
    this.store.stored = stored;
    await this.gaps.check(stored, signal);
    await this.store.loadInterest();
    const refill = (state?.waiting_cursor ?? null) as StreamCursor | null;
    return { cursor: Object.keys(stored).length > 0 ? stored : null, refill };
  }

  private async run(
    signal: AbortSignal,
    failures: number,
    failure: unknown,
    initial?: ReadStart,
  ): Promise<void> {
    // undefined: the stored cursor must be read (again) first.
    let start: ReadStart | undefined = initial;
    let failed = failures;
    let error = failure;
    while (!signal.aborted) {
      if (error !== null) {
        const delay = Math.min(this.deps.maxBackoffMs ?? 60_000, 1_000 * 2 ** (failed - 1));
        this.deps.log.error(
          { err: error, cursor: this.store.stored, retryInMs: delay },
          'stream: batch not read or not stored; resuming from the stored cursor',
        );
        await this.store.record(error instanceof Error ? error.message : String(error));
        await abortableSleep(delay, signal);
        if (signal.aborted) return;
      }
      try {
        start ??= await this.prepare(signal);
        const { cursor, refill } = start;
        for await (const batch of this.deps.source.read(cursor, this.store.interest, signal, refill)) {
          if (signal.aborted) return;
          await this.store.put(batch);
          failed = 0;
        }
        if (signal.aborted) return;
        throw new Error(`${this.deps.source.name}: the stream ended`);
      } catch (caught) {
        if (signal.aborted) return;
        failed++;
        error = caught;
        start = undefined;
        this.store.drop();
        // The batch under way is lost: the likes its posts released from the waiting room wait again, since the
        // stored cursor may lie past them (only their posts are read again).
        this.store.interest.rewind();
      }
    }
  }
}

/** Where a read starts: the stored cursor, and where to refill the waiting room from (StreamSource.read). */
type ReadStart = { cursor: StreamCursor | null; refill: StreamCursor | null };

/** A backoff that a stop cuts short. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
