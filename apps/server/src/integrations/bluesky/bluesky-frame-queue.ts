import type WebSocket from 'ws';

/** The bytes of the buffer a queue copies the frames it holds into (FrameQueue). */
export const FRAME_RING_BYTES = 2 * 1024 * 1024;

/**
 * Frames received from the relay and not handled yet, bounded: the socket is paused while it is full. Kept apart from
 * the firehose (bluesky-firehose.ts) because it is the flow-control seam: the firehose only reads and
 * waits, while this queue owns the socket's listeners, its pause/resume and the connection's liveness.
 *
 * Each frame is copied, as it arrives, into one buffer the queue reuses (a ring of FRAME_RING_BYTES; a frame that
 * does not fit in what is free stays as the socket gave it). The socket's frames are views of its reads (up to
 * 64 KB each, one ArrayBuffer apiece), and a backlog keeps the queue full: a frame that waited there lived through
 * V8's young collections and was moved to its old generation, whose ArrayBuffers only a full collection frees, so
 * the reads waited in memory, up to ~64 MB of them (V8 collects in full when ArrayBuffers grow by 64 MB; issue 31).
 * Copied at once, the socket's read dies young. So a frame `next` hands on is the queue's until `next` is called
 * again: its bytes are then reused, and the reader keeps nothing of it (it copies what it keeps: strings, proofs).
 */
export class FrameQueue {
  /** Frames received; those before `head` were handed on, and their slots are emptied (undefined). */
  private frames: Array<Uint8Array | undefined> = [];
  private head = 0;
  private waiter: (() => void) | null = null;
  private paused = false;
  failure: Error | null = null;
  activeAt = Date.now();
  private readonly ring: Uint8Array;
  /** Where the next frame is copied, and where the oldest frame in the ring still in use begins. */
  private writeAt = 0;
  private busyFrom = 0;
  /** Frames in the ring queued or being read (the one handed on last, `lent`). */
  private ringFrames = 0;
  private lent: Uint8Array | undefined = undefined;

  constructor(
    private readonly socket: WebSocket,
    private readonly limit: number,
    ringBytes = FRAME_RING_BYTES,
  ) {
    this.ring = new Uint8Array(ringBytes);
    socket.on('message', (data: Buffer) => {
      this.frames.push(this.copy(data));
      this.activeAt = Date.now();
      if (this.frames.length - this.head >= limit && !this.paused) {
        this.paused = true;
        socket.pause();
      }
      this.wake();
    });
    socket.on('pong', () => {
      this.activeAt = Date.now();
    });
    socket.on('open', () => {
      this.activeAt = Date.now();
    });
    socket.on('close', (code: number, reason: Buffer) =>
      this.fail(
        new Error(
          `the relay closed the connection (${code}${reason.length ? `: ${reason.toString()}` : ''})`,
        ),
      ),
    );
    socket.on('error', (error: Error) => this.fail(error));
  }

  /** The next frame, or undefined; the frame handed on before is let go (its bytes may be reused). */
  next(): Uint8Array | undefined {
    if (this.lent) this.letGo();
    if (this.head >= this.frames.length) return undefined;
    const frame = this.frames[this.head];
    if (frame?.buffer === this.ring.buffer) this.lent = frame;
    // The slot lets go of the frame at once: it would otherwise keep it (a frame the ring did not hold: the socket's
    // read it is a view of) until the array is cut down, up to 1,024 frames later.
    this.frames[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
    if (this.paused && this.frames.length - this.head < this.limit / 2) {
      this.paused = false;
      this.socket.resume();
    }
    return frame;
  }

  /** `data` copied into the ring, or `data` itself when the ring's free bytes do not hold it. */
  private copy(data: Uint8Array): Uint8Array {
    const at = this.place(data.length);
    if (at < 0) return data;
    this.ring.set(data, at);
    this.writeAt = at + data.length;
    this.ringFrames++;
    return this.ring.subarray(at, this.writeAt);
  }

  /** Where `n` bytes fit in the ring after the frames in use (in the order they came), or -1. */
  private place(n: number): number {
    const size = this.ring.length;
    if (this.ringFrames === 0) {
      this.busyFrom = this.writeAt = 0;
      return n <= size ? 0 : -1;
    }
    // In use: from busyFrom up to writeAt, or, once wrapped, from busyFrom to the end and from the start to writeAt.
    if (this.busyFrom < this.writeAt) {
      if (size - this.writeAt >= n) return this.writeAt;
      return n <= this.busyFrom ? 0 : -1;
    }
    return this.busyFrom - this.writeAt >= n ? this.writeAt : -1;
  }

  /** The frame handed on last is read: the ring's bytes in use begin with the next frame in it. */
  private letGo(): void {
    this.lent = undefined;
    this.ringFrames--;
    if (this.ringFrames === 0) return;
    for (let i = this.head; i < this.frames.length; i++) {
      const frame = this.frames[i];
      if (frame?.buffer === this.ring.buffer) {
        this.busyFrom = frame.byteOffset;
        return;
      }
    }
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  /** Until a frame arrives, the connection fails, or `ms` pass. */
  waitFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), Math.max(1, ms));
      this.waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
