import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { readThreadHeaps, watchThreadHeap } from './thread-heaps';

/** A thread that keeps `mb` MB of arrays (128 numbers of 8 bytes each) alive in its heap and an ArrayBuffer of 8 MB outside it until told to end. */
const holder = (mb: number) =>
  new Worker(
    `const { parentPort } = require('node:worker_threads');
     const kept = Array.from({ length: ${mb} * 1024 }, (_, i) => new Array(128).fill(i));
     const outside = new Uint8Array(8 * 1024 * 1024).fill(1);
     parentPort.postMessage('ready');
     parentPort.on('message', () => { parentPort.close(); void kept; void outside; });`,
    { eval: true },
  );

const of = async (thread: string) => (await readThreadHeaps()).filter((h) => h.thread === thread);

describe('the threads’ heaps', () => {
  it('reads the serving thread’s heap without any thread watched', async () => {
    const [serving] = await of('serving');
    expect(serving?.usedBytes).toBeGreaterThan(1_000_000);
    expect(serving?.totalBytes).toBeGreaterThanOrEqual(serving?.usedBytes ?? Infinity);
  });

  it('reads each watched thread’s own heap until the thread exits', async () => {
    const [big, small] = [holder(16), holder(1)];
    watchThreadHeap('holder-big', big);
    watchThreadHeap('holder-small', small);
    await Promise.all([once(big, 'message'), once(small, 'message')]);
    const [[heap], [smallHeap]] = await Promise.all([of('holder-big'), of('holder-small')]);
    // Its 16 MB of arrays are in its own heap (15 MB more than the other's), its 8 MB buffer outside it.
    expect(heap?.usedBytes).toBeGreaterThan(16 * 1024 * 1024);
    expect((heap?.usedBytes ?? 0) - (smallHeap?.usedBytes ?? Infinity)).toBeGreaterThan(12 * 1024 * 1024);
    expect(heap?.totalBytes).toBeGreaterThanOrEqual(heap?.usedBytes ?? Infinity);
    expect(heap?.externalBytes).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    for (const worker of [big, small]) worker.postMessage('end');
    await Promise.all([once(big, 'exit'), once(small, 'exit')]);
    expect([...(await of('holder-big')), ...(await of('holder-small'))]).toEqual([]);
  });

  it('forgets a thread when asked, while it still runs', async () => {
    const worker = holder(1);
    const forget = watchThreadHeap('holder-b', worker);
    await once(worker, 'message');
    expect(await of('holder-b')).toHaveLength(1);
    forget();
    expect(await of('holder-b')).toEqual([]);
    worker.postMessage('end');
    await once(worker, 'exit');
  });
});
