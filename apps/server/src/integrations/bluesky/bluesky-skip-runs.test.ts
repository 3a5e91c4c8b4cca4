import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamLog } from '../../social/stream-source';
import { SkipRunLog } from './bluesky-skip-runs';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const log: StreamLog = {
    info: () => undefined,
    warn: (obj) => lines.push({ ...obj }),
    error: () => undefined,
  };
  return { lines, log };
}

afterEach(() => vi.useRealTimers());

describe('the log of frames skipped as replayed-seq', () => {
  it('logs a run once, with its first and last seq and its size, after a quiet second', () => {
    vi.useFakeTimers();
    const { lines, log } = capture();
    const runs = new SkipRunLog(log);
    for (let seq = 100; seq < 20_100; seq++) runs.add(seq, `seq ${seq} comes at or before seq 20100`);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(lines).toEqual([
      {
        reason: 'replayed-seq',
        firstSeq: 100,
        lastSeq: 20_099,
        frames: 20_000,
        detail: 'seq 100 comes at or before seq 20100',
      },
    ]);
  });

  it('a run that goes on is logged every few seconds; flush ends a run at once', () => {
    vi.useFakeTimers();
    const { lines, log } = capture();
    const runs = new SkipRunLog(log, { quietMs: 1_000, everyMs: 5_000 });
    // 12 s of one re-sent frame every 100 ms: never a quiet second.
    for (let k = 0; k < 120; k++) {
      runs.add(k, 'again');
      vi.advanceTimersByTime(100);
    }
    runs.flush();
    expect(lines.map((l) => l.frames)).toEqual([50, 50, 20]);
    runs.flush();
    expect(lines).toHaveLength(3);
  });
});
