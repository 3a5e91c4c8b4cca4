import type WebSocket from 'ws';

/**
 * Frames received from the relay and not handled yet, bounded: the socket is paused while it is full. Kept apart from
 * the firehose (bluesky-firehose.ts) because it is the flow-control seam: the firehose only reads and
 * waits, while this queue owns the socket's listeners, its pause/resume and the connection's liveness.
 */
export class FrameQueue {
  private frames: Uint8Array[] = [];
  private head = 0;
  private waiter: (() => void) | null = null;
  private paused = false;
  failure: Error | null = null;
  activeAt = Date.now();

  constructor(
    private readonly socket: WebSocket,
    private readonly limit: number,
  ) {
    socket.on('message', (data: Buffer) => {
      this.frames.push(data);
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

  next(): Uint8Array | undefined {
    if (this.head >= this.frames.length) return undefined;
    const frame = this.frames[this.head++];
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
