import fs from 'node:fs';
import koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { fixMmapThreshold, MMAP_THRESHOLD } from './malloc-threshold';

const glibc = process.platform === 'linux' && fs.existsSync('/lib/x86_64-linux-gnu/libc.so.6');

describe.skipIf(!glibc)("glibc's mmap threshold", () => {
  it('stays at 128 KiB after a large block is freed, so a block of 1 MB is mapped on its own and unmapped when freed', async () => {
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)') as (size: number) => unknown;
    const free = libc.func('void free(void *ptr)') as (pointer: unknown) => void;
    koffi.struct('mallinfo2_t', {
      arena: 'size_t',
      ordblks: 'size_t',
      smblks: 'size_t',
      hblks: 'size_t',
      hblkhd: 'size_t',
      usmblks: 'size_t',
      fsmblks: 'size_t',
      uordblks: 'size_t',
      fordblks: 'size_t',
      keepcost: 'size_t',
    });
    const mallinfo2 = libc.func('mallinfo2_t mallinfo2()') as () => { hblks: number | bigint };
    const mapped = () => Number(mallinfo2().hblks);

    expect(await fixMmapThreshold()).toBe(true);
    // glibc's dynamic threshold would now rise to 8 MB, and serve the next 1 MB from its heap, kept once freed.
    free(malloc(8 * 1024 * 1024));
    const before = mapped();
    const block = malloc(1024 * 1024);
    expect(mapped()).toBe(before + 1);
    free(block);
    expect(mapped()).toBe(before);
    expect(MMAP_THRESHOLD).toBe(131_072);
  });
});

describe('whether the server fixes the threshold', () => {
  it('does unless GLIBC_TUNABLES is set (even empty): then glibc is left as the operator set it', () => {
    expect(loadConfig({}).fixMmapThreshold).toBe(true);
    expect(loadConfig({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).fixMmapThreshold).toBe(false);
    expect(loadConfig({ GLIBC_TUNABLES: '' }).fixMmapThreshold).toBe(false);
  });
});
