import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config/config';
import { GC_FUNCTION, startMemoryTrim } from './memory-trim';

const glibc = process.platform === 'linux' && fs.existsSync('/lib/x86_64-linux-gnu/libc.so.6');

/** The process's anonymous resident memory (Linux), bytes. */
const rssAnon = () =>
  Number(/RssAnon:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

/**
 * Full garbage collections, so buffers dropped by the test free their native memory now (V8 frees the memory of
 * dead ArrayBuffers on a background thread: a pause lets it finish).
 */
async function collectGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  for (let i = 0; i < 2; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const log = () => {
  const lines: Array<{ details: object; message: string }> = [];
  return { lines, info: (details: object, message: string) => lines.push({ details, message }) };
};

describe.skipIf(!glibc)('trimming the C heap (glibc)', () => {
  it('gives the free pages between blocks still in use back to the system', async () => {
    const trim = await startMemoryTrim(log(), 0);
    // 64 MB of 2 KB native blocks (below the mmap threshold: they come from malloc's heap), then all but every
    // 16th dropped: holes a free() at the top can never return.
    const blocks: Array<Buffer | null> = [];
    for (let i = 0; i < 32_768; i++) blocks.push(Buffer.allocUnsafeSlow(2048).fill(i & 0xff));
    for (let i = 0; i < blocks.length; i++) if (i % 16 !== 0) blocks[i] = null;
    await collectGarbage();
    const before = rssAnon();
    expect(trim.trim()).toBe(true);
    const after = rssAnon();
    // Most of the ~60 MB freed goes back (the kept blocks pin one page in sixteen of 2 KB blocks).
    expect(before - after).toBeGreaterThan(20 * 1024 * 1024);
    expect(blocks.filter(Boolean)).toHaveLength(2048);
    trim.stop();
  });

  it('trims on its own timer', async () => {
    const blocks: Array<Buffer | null> = [];
    for (let i = 0; i < 16_384; i++) blocks.push(Buffer.allocUnsafeSlow(2048).fill(1));
    for (let i = 0; i < blocks.length; i++) if (i % 16 !== 0) blocks[i] = null;
    await collectGarbage();
    const before = rssAnon();
    const trim = await startMemoryTrim(log(), 50);
    await expect.poll(() => before - rssAnon(), { timeout: 5_000 }).toBeGreaterThan(10 * 1024 * 1024);
    trim.stop();
  });
});

describe('settling the JavaScript heap', () => {
  it("runs V8's last-resort collection when the start's busy spell is over, and after a later one once quiet long enough; it gives the grown young generation back", async () => {
    // V8's gc extension, as scripts/runtime-env.mjs exposes it under GC_FUNCTION (--expose-gc-as), taken from a
    // context made after the flag (the extension is installed in new contexts).
    v8.setFlagsFromString('--expose-gc');
    const realGc = vm.runInNewContext('gc') as (options: object) => void;
    const calls: object[] = [];
    (globalThis as Record<string, unknown>)[GC_FUNCTION] = (options: object) => {
      calls.push(options);
      realGc(options);
    };
    try {
      const logged = {
        lines: [] as string[],
        info: () => undefined,
        debug: (_: object, m: string) => logged.lines.push(m),
      };
      const memory = await startMemoryTrim(logged, 0, 1_500);
      const busySpell = () => {
        // Many short-lived objects, some kept a while: what grows the young generation.
        let kept: object[][] = [];
        const until = performance.now() + 400;
        while (performance.now() < until) {
          const batch = Array.from({ length: 50_000 }, (_, i) => ({ i, s: `x${i}` }));
          kept.push(batch.slice(0, 5_000));
          if (kept.length > 20) kept = kept.slice(10);
        }
      };
      const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const young = () =>
        v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
      // The start: settled at the first quiet check.
      busySpell();
      memory.check();
      expect(calls).toHaveLength(0);
      const youngBefore = young();
      // Checks until one finds the loop quiet (under 5 % busy since the last): on a loaded machine the collection
      // of the spell's garbage and the runner's own work can keep a second's window above that.
      const checkUntil = (settled: number) =>
        expect
          .poll(
            async () => {
              await quiet(500);
              memory.check();
              return calls.length;
            },
            { timeout: 10_000, interval: 0 },
          )
          .toBe(settled);
      await checkUntil(1);
      expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
      expect(logged.lines).toEqual(['memory: heap settled after a busy spell']);
      expect(young()).toBeLessThan(youngBefore);
      // Quiet again: nothing to settle.
      await quiet(1_000);
      memory.check();
      expect(calls).toHaveLength(1);
      // Later spells: a short pause is left alone; a pause as long as settleAfterQuietMs is settled.
      busySpell();
      memory.check();
      await quiet(1_000);
      memory.check();
      expect(calls).toHaveLength(1);
      // Settled once the loop has been quiet for settleAfterQuietMs (1.5 s) since the spell.
      await checkUntil(2);
    } finally {
      delete (globalThis as Record<string, unknown>)[GC_FUNCTION];
    }
  });

  it('does nothing to the heap without the extension', async () => {
    const memory = await startMemoryTrim(log(), 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(() => memory.check()).not.toThrow();
  });
});

describe('MEMORY_TRIM_SECONDS', () => {
  it('defaults to 5 s, takes 0 for never, and refuses what is not a whole number of seconds', () => {
    expect(loadConfig({}).memoryTrimSeconds).toBe(5);
    expect(loadConfig({ MEMORY_TRIM_SECONDS: '0' }).memoryTrimSeconds).toBe(0);
    expect(() => loadConfig({ MEMORY_TRIM_SECONDS: 'often' })).toThrow(ConfigError);
    expect(() => loadConfig({ MEMORY_TRIM_SECONDS: '-1' })).toThrow(/MEMORY_TRIM_SECONDS/);
  });
});
