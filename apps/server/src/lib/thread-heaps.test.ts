import { execFile } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { childProcessEnv } from '../config/child-env';
import { tsxNodeArgs } from '../test/cli-process';
import { readThreadHeaps, THREAD_YOUNG_GENERATION_MB, watchThreadHeap } from './thread-heaps';

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

const OLD_MB = 256;

/**
 * A node process started with `flags` (and NODE_OPTIONS `nodeOptions`) as the server is, plus
 * `--max-old-space-size=OLD_MB` (the server sets none), that starts a thread with `threadResourceLimits(64, …)` and
 * prints each isolate's young generation as V8 configured it, in MB: its heap limit less the old generation (two
 * semi-spaces and a space for new large objects, of a semi-space each). The old generation is OLD_MB in both, since
 * that process flag wins over the thread's own 64 as the semi-space one would. The limit, not the new space's
 * committed size: that one overshoots its limit for a moment after a scavenge (3.25 MB committed under semi-spaces
 * of 1 MB, seen here), so says nothing exact.
 */
async function youngGenerations(
  flags: string[],
  nodeOptions = '',
): Promise<{ serving: number; thread: number }> {
  const young = `process.getBuiltinModule('node:v8').getHeapStatistics().heap_size_limit / 1048576 - ${OLD_MB}`;
  const module = pathToFileURL(path.join(import.meta.dirname, 'thread-heaps.ts')).href;
  const config = pathToFileURL(path.join(import.meta.dirname, '../config/memory-config.ts')).href;
  const code = `
    const { Worker } = await import('node:worker_threads');
    const { threadResourceLimits } = await import(${JSON.stringify(module)});
    const { operatorSetsSemiSpace } = await import(${JSON.stringify(config)});
    const serving = ${young};
    const worker = new Worker(\`process.getBuiltinModule('node:worker_threads').parentPort.postMessage(${young});\`, {
      eval: true,
      resourceLimits: threadResourceLimits(64, operatorSetsSemiSpace()),
    });
    worker.once('message', (thread) => { console.log(JSON.stringify({ serving, thread })); process.exit(0); });`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...flags, `--max-old-space-size=${OLD_MB}`, ...tsxNodeArgs, '--input-type=module', '-e', code],
    { env: childProcessEnv({ NODE_OPTIONS: nodeOptions }) },
  );
  return JSON.parse(stdout) as { serving: number; thread: number };
}

describe('the threads’ young generation (threadResourceLimits)', () => {
  it('is the threads’ own under the server’s --max-semi-space-size=4, which sizes the serving thread’s alone', async () => {
    // Three spaces of 4 MB for the serving thread; the thread's own limit for it.
    expect(await youngGenerations(['--max-semi-space-size=4'])).toEqual({
      serving: 12,
      thread: THREAD_YOUNG_GENERATION_MB,
    });
  });

  it('follows the operator’s --max-semi-space-size in NODE_OPTIONS, for the threads too', async () => {
    expect(await youngGenerations([], '--max-semi-space-size=8')).toEqual({ serving: 24, thread: 24 });
  });
});
