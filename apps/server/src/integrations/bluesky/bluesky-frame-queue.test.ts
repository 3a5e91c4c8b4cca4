import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { FrameQueue } from './bluesky-frame-queue';

/** The relay's socket as the queue uses it: its messages, and pause/resume. */
function socket() {
  return Object.assign(new EventEmitter(), { paused: false, pause() {}, resume() {} });
}

/** A frame of `size` bytes whose every byte says which frame it is. */
const frameOf = (n: number, size: number) => Buffer.alloc(size, n % 251);

describe('the frame queue', () => {
  it('hands on every frame intact and in order while it reuses its buffer, also the frame being read', () => {
    // Issue 31: frames are copied into one ring the queue reuses; a frame handed on keeps its bytes until the next
    // call, whatever arrives meanwhile; a frame the free bytes cannot hold is handed on as it came.
    const s = socket();
    const queue = new FrameQueue(s as unknown as WebSocket, 1_000, 100);
    let seed = 31;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const sent: Buffer[] = [];
    const got: Buffer[] = [];
    let reading: { frame: Uint8Array; copy: Buffer } | null = null;
    for (let step = 0; step < 5_000; step++) {
      if (random(2) === 0) {
        // Sizes up to past the ring's: some wrap, some do not fit, some are empty.
        const frame = frameOf(sent.length, random(120));
        sent.push(frame);
        s.emit('message', frame);
        // The frame being read is untouched by what arrives.
        if (reading) expect(Buffer.from(reading.frame)).toEqual(reading.copy);
      } else {
        const frame = queue.next();
        reading = frame ? { frame, copy: Buffer.from(frame) } : null;
        if (frame) got.push(Buffer.from(frame));
      }
    }
    for (let frame = queue.next(); frame; frame = queue.next()) got.push(Buffer.from(frame));
    expect(got.length).toBe(sent.length);
    expect(got).toEqual(sent);
  });

  it('copies a frame that fits out of the socket’s buffer, so the socket’s read is not kept', () => {
    const s = socket();
    const queue = new FrameQueue(s as unknown as WebSocket, 10);
    const read = Buffer.alloc(64 * 1024, 7);
    s.emit('message', read.subarray(0, 3_000));
    const frame = queue.next();
    expect(frame?.buffer).not.toBe(read.buffer);
    expect(frame && Buffer.from(frame)).toEqual(read.subarray(0, 3_000));
    // Frames read one after another reuse the same bytes: the queue holds one buffer, however many frames pass.
    const buffers = new Set<ArrayBufferLike>();
    for (let n = 0; n < 2_000; n++) {
      s.emit('message', frameOf(n, 3_000));
      buffers.add(queue.next()?.buffer ?? new ArrayBuffer(0));
    }
    expect([...buffers]).toEqual([frame?.buffer]);
  });
});
