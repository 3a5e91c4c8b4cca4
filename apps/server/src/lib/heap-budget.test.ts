import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { heapBudget } from './heap-budget';
import { GC_FUNCTION } from './memory-trim';

const MB = 1024 * 1024;
const globals = globalThis as Record<string, unknown>;

/** The gc extension as `npm start` exposes it (scripts/runtime-env.mjs), installed in this test's process. */
function exposeGc(): () => number {
  // V8 installs the extension in contexts made after the flag is set (a new vm context), under its default name.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: object) => void;
  let calls = 0;
  globals[GC_FUNCTION] = (options: object) => {
    calls++;
    gc(options);
  };
  return () => calls;
}

describe('a heap budget', () => {
  afterEach(() => {
    delete globals[GC_FUNCTION];
  });

  it('has V8 collect once the heap and external memory have grown by more than the budget, and not before', () => {
    const calls = exposeGc();
    const budget = heapBudget(8 * MB);
    const kept: Buffer[] = [Buffer.alloc(MB)];
    expect(budget.check()).toBe(false);
    // 12 MB of Buffers (external memory), kept: over the budget, so the next check collects.
    for (let i = 0; i < 12; i++) kept.push(Buffer.alloc(MB, i));
    expect(budget.check()).toBe(true);
    expect(calls()).toBe(1);
    expect(budget.collections()).toBe(1);
    // What survived is the new base: the same memory, still held, is no reason to collect again.
    expect(budget.check()).toBe(false);
    expect(calls()).toBe(1);
    expect(kept.length).toBe(13);
  });

  it('frees what was garbage when it collects', async () => {
    exposeGc();
    const budget = heapBudget(8 * MB);
    const base = process.memoryUsage().arrayBuffers;
    // 24 MB made and dropped at once: garbage V8 has not collected yet.
    const made = (() => Array.from({ length: 24 }, (_, i) => Buffer.alloc(MB, i)).length)();
    expect(made).toBe(24);
    expect(budget.check()).toBe(true);
    // Most of it is gone (the rest of the process's own Buffers move by far less). V8 frees the Buffers' memory
    // on a background thread once the collection found them dead: give it a moment.
    for (let waited = 0; waited < 2000 && process.memoryUsage().arrayBuffers >= base + 8 * MB; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(base + 8 * MB);
  });

  it('does nothing where the gc extension is not exposed', () => {
    const budget = heapBudget(MB);
    const kept = Array.from({ length: 4 }, (_, i) => Buffer.alloc(MB, i));
    expect(budget.check()).toBe(false);
    expect(budget.collections()).toBe(0);
    expect(kept.length).toBe(4);
  });
});
