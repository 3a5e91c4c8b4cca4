import { Worker } from 'node:worker_threads';
import { operatorSetsSemiSpace } from '../../config/memory-config';
import type { StreamInterest } from '../../social/stream-interest';
import type { StreamBatch, StreamCursor } from '../../social/stream-source';
import { threadResourceLimits, watchThreadHeap } from '../../lib/thread-heaps';
import { StalledConnectionError, type RelayReadOptions, type RelaySink } from './bluesky-relay';
import type { FromWorker, ToWorker, WorkerStart } from './bluesky-stream-protocol';

/**
 * The worker thread's entry, src/composition/bluesky-stream-worker.ts (a composition root: it hands this adapter the engine's
 * namer): built beside the server's bundle as bluesky-stream-worker.js (scripts/build.mjs; the bundle's directory is
 * flat); from the sources (tests, tsx) the .ts file, loaded through tsx.
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  const fromSources = import.meta.url.endsWith('.ts');
  return fromSources
    ? {
        url: new URL('../../composition/bluesky-stream-worker.ts', import.meta.url),
        execArgv: ['--import', 'tsx'],
      }
    : { url: new URL('./bluesky-stream-worker.js', import.meta.url), execArgv: [] };
}

/** How long a closing thread has to end its read before it is terminated. */
const CLOSE_MS = 2_000;

/**
 * The thread's V8 old generation at most this size (MB), for how eagerly V8 collects there rather than as a cap
 * (as db/pglite-thread.ts does for the database's thread): V8 lets a heap grow past what its last full collection
 * kept by a factor that falls with its limit, up to 4× under the default (4 GB here) and 1.3× at 256 MB. The thread
 * keeps ~20 MB live (its code, the interest, a full waiting room of ~12 MB) and allocates fast (every frame is
 * decoded here), so under the default its heap held several times that between collections (issue 31,
 * docs/benchmarks.md). A live set that reached the limit would end the thread with an error: the read under way
 * fails and the next starts a new thread from the stored cursor, as after any crash of it.
 */
export const STREAM_THREAD_OLD_GENERATION_MB = 256;

/**
 * The thread's nice value (Linux; lib/thread-priority.ts): it reads and decodes every frame of the network, the
 * serving thread answers members. Through a backlog the thread wants a whole core, and on two cores the serving
 * thread waited for one behind it and the embedded database's thread: the serving loop's p99 reached 26-35 ms in
 * 2-s windows mid-backlog while 10 connections read the board. At 10 (CFS weighs it about a tenth of a thread at 0)
 * the serving thread comes first whenever both want a core: with the board read meanwhile, every window after the
 * first at 19 ms or less and the board served 12,500-14,400 requests/s against 8,400-9,500, the backlog stored at
 * 0.24-0.25× the plain reader against 0.32-0.33×; without readers it stored as fast (35,800 events/s against
 * 36,900, 39 µs of CPU a frame both; issue 31, docs/benchmarks.md).
 */
export const STREAM_THREAD_NICE = 10;

/**
 * The serving thread's side of the stream's worker thread (bluesky-stream-serve.ts): it starts the thread with a
 * copy of the interest, tells it each change the engine makes, and turns its messages back into the source's
 * batches, skips and errors, in the order it read (the skips come with the batch or error after them). A batch is acknowledged when the engine asks for the next (it
 * was stored); the thread reads on only while fewer than `maxUnacked` are not. The thread lives across reads (its
 * interest keeps what waits for a post), ends when the job stops (the signal), and is started again after a crash
 * (which ends the read with an error: the engine resumes from its stored cursor).
 */
export class StreamThread {
  private worker: Worker | null = null;
  private interest: StreamInterest | null = null;
  private unsubscribe: (() => void) | null = null;
  private reads = 0;
  /** The newest batch the engine stored. */
  private acked = 0;
  /** The read under way: where the thread's messages go. */
  private inbox: { id: number; push: (item: Item) => void } | null = null;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly sink: RelaySink,
  ) {}

  async *read(
    options: RelayReadOptions,
    maxUnacked: number,
    cursor: StreamCursor | null,
    interest: StreamInterest,
    signal: AbortSignal,
    refill: StreamCursor | null = null,
  ): AsyncGenerator<StreamBatch> {
    const worker = this.start(interest);
    const id = ++this.reads;
    const items: Item[] = [];
    let wake: (() => void) | null = null;
    const push = (item: Item) => {
      items.push(item);
      const waiter = wake;
      wake = null;
      waiter?.();
    };
    this.inbox = { id, push };
    const onAbort = () => push({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    post(worker, { type: 'read', id, cursor, refill, options, maxUnacked });
    try {
      while (!signal.aborted) {
        const item = items.shift();
        if (!item) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (item.kind === 'aborted') break;
        if (item.kind === 'error') throw item.error;
        yield item.batch;
        // Asked for the next: this one was stored.
        giveBackProofs(item.batch);
        this.acked = Math.max(this.acked, item.n);
        post(worker, { type: 'ack', id, n: item.n });
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.inbox?.id === id) this.inbox = null;
      if (signal.aborted) await this.close();
      else if (this.worker === worker) post(worker, { type: 'stop', id });
    }
  }

  /** The thread, started (with the interest as it is) when there is none or the interest is another. */
  private start(interest: StreamInterest): Worker {
    if (this.worker && this.interest === interest) return this.worker;
    if (this.worker) void this.close();
    const plain = interest.portable();
    if (!plain) throw new Error('the interest cannot be read in a worker thread (its namer has no terms)');
    const entry = workerEntry();
    const data: WorkerStart = {
      interest: plain,
      maxFrameBytes: this.maxFrameBytes,
      nice: STREAM_THREAD_NICE,
    };
    const worker = new Worker(entry.url, {
      workerData: data,
      execArgv: entry.execArgv,
      resourceLimits: threadResourceLimits(STREAM_THREAD_OLD_GENERATION_MB, operatorSetsSemiSpace()),
    });
    // The server's lifecycle ends the process; the thread never holds it open.
    worker.unref();
    watchThreadHeap('stream', worker);
    this.worker = worker;
    this.interest = interest;
    this.acked = 0;
    this.unsubscribe = interest.onChange((change) => {
      if (change.kind === 'add')
        post(worker, { type: 'add', tracked: change.tracked, people: change.people });
      else if (change.interest)
        post(worker, { type: 'load', interest: change.interest, through: this.acked });
      else this.crashed(worker, new Error('the interest loaded cannot be read in a worker thread'));
    });
    worker.on('message', (message: FromWorker) => this.receive(message));
    worker.on('error', (error) => this.crashed(worker, error));
    worker.on('exit', (code) =>
      this.crashed(worker, new Error(`the stream's worker thread exited (${code})`)),
    );
    return worker;
  }

  private receive(message: FromWorker): void {
    for (const note of message.notes) {
      if (note.type === 'skip') this.sink.skip(note.reason, note.detail, note.seq);
      else if (note.type === 'refill') this.sink.refilled(note.report);
      else this.sink.info(note.name, note.message);
    }
    switch (message.type) {
      case 'batch':
        if (this.inbox?.id === message.id)
          this.inbox.push({ kind: 'batch', n: message.n, batch: message.batch });
        return;
      case 'error': {
        if (this.inbox?.id !== message.id) return;
        const error =
          message.name === 'StalledConnectionError'
            ? new StalledConnectionError(message.message)
            : Object.assign(new Error(message.message), { name: message.name });
        if (message.stack) error.stack = message.stack;
        this.inbox.push({ kind: 'error', error });
        return;
      }
    }
  }

  /** The thread failed or exited unasked: the read under way fails; the next read starts another thread. */
  private crashed(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.forget();
    void worker.terminate();
    this.inbox?.push({
      kind: 'error',
      error: new Error(`the stream's worker thread failed: ${error.message}`, { cause: error }),
    });
  }

  private forget(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.worker = null;
    this.interest = null;
  }

  /** Ends the thread: its read closes the connection, then it exits (terminated if it takes too long). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.forget();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    post(worker, { type: 'close' });
    const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
    await exited;
    clearTimeout(timer);
  }
}

type Item =
  { kind: 'batch'; n: number; batch: StreamBatch } | { kind: 'error'; error: Error } | { kind: 'aborted' };

const post = (worker: Worker, message: ToWorker) => worker.postMessage(message);

/**
 * The memory of a stored batch's proofs, given back at once (issue 31). Each proof crossed from the thread as an
 * ArrayBuffer of its own, and the serving thread held them until V8 collected its heap in full, which it does when
 * ArrayBuffers have grown by 64 MB: 22 → 74 MB of them through a backlog. The engine asked for the next batch, so
 * this one is stored (StreamSource.read) and nothing reads its proofs again: each buffer is detached (`transfer(0)`:
 * its bytes freed now, the proof empty from then on).
 */
function giveBackProofs(batch: StreamBatch): void {
  for (const event of batch.events) {
    const proof = 'proof' in event ? event.proof : undefined;
    type Transferable = ArrayBuffer & { detached?: boolean; transfer?: (length: number) => ArrayBuffer };
    const buffer = proof?.buffer as Transferable | undefined;
    if (buffer && !buffer.detached) buffer.transfer?.(0);
  }
}
