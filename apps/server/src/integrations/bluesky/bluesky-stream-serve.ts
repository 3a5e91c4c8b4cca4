/**
 * The stream's worker thread (issue 31; its entry is the composition root's src/composition/bluesky-stream-worker.ts): the
 * relay's socket, the frame queue, the frames' CBOR/CAR decoding, the interest's filter and the batching run here, so their garbage (some 3 KB a frame, most of it for frames that
 * concern nobody) is collected in this thread's heap and never pauses the loop that serves requests. The serving
 * thread (bluesky-stream-thread.ts) receives only the batches of kept events, and acknowledges each once stored.
 *
 * The thread holds a copy of the interest: the engine's changes arrive as messages. What `keep` lets through here
 * (a post that names the programme is tracked from then on) is journaled by batch, so a snapshot the engine read
 * before those batches were stored does not make the copy forget them (`through`).
 */
import type { MessagePort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../lib/thread-priority';
import type { PostEvent } from '../../social/stream-events';
import { StreamInterest, type PortableInterest } from '../../social/stream-interest';
import { createFrameReader } from './bluesky-frames';
import { readRelay, type RelaySink } from './bluesky-relay';
import type { FromWorker, Note, ToWorker, WorkerStart } from './bluesky-stream-protocol';
import { postMadeAt } from './bluesky-tid';

/**
 * Serves the serving thread's messages on `port` until it says `close`. `namerOf` builds the programme's namer
 * from the terms a namer carried (the engine's programmeNamer: this adapter does not import the engine).
 */
export function serveStreamThread(
  port: MessagePort,
  start: WorkerStart,
  namerOf: (terms: unknown) => (post: PostEvent) => boolean,
): void {
  lowerThreadPriority(start.nice);
  const post = (message: FromWorker) => port.postMessage(message);

  const interest = new StreamInterest(Date.now, postMadeAt);
  const reader = createFrameReader({ maxFrameBytes: start.maxFrameBytes });

  /** What `keep` let through in each batch not acknowledged yet (by batch number), and in the one being read. */
  type Segment = { tracked: string[]; people: string[] };
  const journal = new Map<number, Segment>();
  let open: Segment = { tracked: [], people: [] };
  const journaling = (kind: 'tracked' | 'people', id: string) => void open[kind].push(id);

  function load(plain: PortableInterest, replay: Segment[]): void {
    interest.onKept = null;
    interest.load({
      tracked: plain.tracked,
      people: plain.people,
      officials: plain.officials,
      names: Object.assign(namerOf(plain.terms), { terms: plain.terms }),
    });
    for (const s of replay) interest.add(s.tracked, s.people);
    interest.onKept = journaling;
  }
  load(start.interest, []);

  /** Batch numbers run on across reads; `acked` is the newest the serving thread stored. */
  let next = 1;
  let acked = 0;
  let ackWaiter: (() => void) | null = null;
  let current: { id: number; abort: AbortController; done: Promise<void> } | null = null;

  const wakeAck = () => {
    const waiter = ackWaiter;
    ackWaiter = null;
    waiter?.();
  };

  /**
   * Where each batch not stored yet ended in the interest's releases (the likes that waited for their post and were
   * let out): once a batch is stored its releases are confirmed; when a read is lost, those of the batches not
   * stored go back to wait (rewind), as the serving thread's own interest does when it reads in-thread.
   */
  const marks = new Map<number, number>();

  async function run(message: Extract<ToWorker, { type: 'read' }>, signal: AbortSignal): Promise<void> {
    // Batches of an earlier read that were not stored will be read again: their journal is not needed, and the
    // likes they released wait again for their post, which the new read brings again.
    journal.clear();
    marks.clear();
    interest.rewind();
    open = { tracked: [], people: [] };
    acked = next - 1;
    const notes: Note[] = [];
    signal.addEventListener('abort', wakeAck, { once: true });
    try {
      const sink: RelaySink = {
        skip: (reason, detail, seq) => void notes.push({ type: 'skip', reason, detail, seq }),
        info: (name, text) => void notes.push({ type: 'info', name, message: text }),
        refilled: (report) => void notes.push({ type: 'refill', report }),
      };
      // A new thread's waiting room is empty: the read refills it first (bluesky-refill.ts).
      const batches = readRelay(
        message.options,
        reader,
        message.cursor,
        interest,
        signal,
        sink,
        message.refill,
      );
      for await (const batch of batches) {
        const n = next++;
        journal.set(n, open);
        marks.set(n, interest.releasedMark());
        open = { tracked: [], people: [] };
        post({ type: 'batch', id: message.id, n, batch, notes: notes.splice(0) });
        // Backpressure: with `maxUnacked` batches not stored, the read waits (its frame queue fills, the socket is
        // paused, and the relay holds the rest).
        while (n - acked >= message.maxUnacked && !signal.aborted) {
          await new Promise<void>((resolve) => (ackWaiter = resolve));
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      const e = error instanceof Error ? error : new Error(String(error));
      post({
        type: 'error',
        id: message.id,
        name: e.name,
        message: e.message,
        stack: e.stack,
        notes: notes.splice(0),
      });
    }
  }

  async function stopCurrent(): Promise<void> {
    const reading = current;
    current = null;
    if (!reading) return;
    reading.abort.abort();
    await reading.done;
  }

  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'read': {
        const abort = new AbortController();
        const previous = stopCurrent();
        const reading = { id: message.id, abort, done: previous.then(() => run(message, abort.signal)) };
        current = reading;
        return;
      }
      case 'ack': {
        if (message.n > acked) acked = message.n;
        for (const n of journal.keys()) if (n <= acked) journal.delete(n);
        let stored = 0;
        for (const [n, mark] of marks) {
          if (n > acked) continue;
          stored = mark;
          marks.delete(n);
        }
        if (stored > 0) {
          interest.confirmThrough(stored);
          for (const [n, mark] of marks) marks.set(n, mark - stored);
        }
        wakeAck();
        return;
      }
      case 'stop':
        if (current?.id === message.id) void stopCurrent();
        return;
      case 'close':
        void stopCurrent().then(() => port.close());
        return;
      case 'load': {
        const replay = [...journal].filter(([n]) => n > message.through).map(([, s]) => s);
        load(message.interest, [...replay, open]);
        return;
      }
      case 'add':
        interest.onKept = null;
        interest.add(message.tracked, message.people);
        interest.onKept = journaling;
        return;
    }
  });
}
