import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TotalsSoon } from './totals-soon';

describe('totals soon after the stream stores a batch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once per delay however many batches ask, again for batches after that run, never before start or after stop', async () => {
    const run = vi.fn(() => Promise.resolve());
    const soon = new TotalsSoon(run, 1_000);
    soon.request(); // not started: ignored
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run).toHaveBeenCalledTimes(0);

    soon.start();
    soon.request();
    soon.request();
    await vi.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(0);
    soon.request();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);

    soon.request(); // a batch after the run: another run
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);

    soon.request();
    soon.stop(); // the timer asked before the stop never fires
    await vi.advanceTimersByTimeAsync(5_000);
    soon.request();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
