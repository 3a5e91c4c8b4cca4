import { describe, expect, it } from 'vitest';
import { monitorEventLoop, type EventLoopDelay } from './event-loop-monitor';

describe('monitorEventLoop', () => {
  it('logs the delay of each window, at warn when the loop was held longer than slowMs', async () => {
    const lines: Array<{ level: string; delay: EventLoopDelay; message: string }> = [];
    const record = (level: string) => (details: object, message: string) =>
      lines.push({ level, delay: (details as { eventLoopDelay: EventLoopDelay }).eventLoopDelay, message });
    const stop = monitorEventLoop(
      { info: record('info'), warn: record('warn') },
      { everyMs: 300, slowMs: 150 },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 350));
      // Hold the thread for 250 ms, as a long synchronous job would.
      const until = performance.now() + 250;
      while (performance.now() < until) {
        // busy
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
    } finally {
      stop();
    }
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const stalled = lines.find((l) => l.level === 'warn');
    expect(stalled?.message).toBe('event loop stalled');
    expect(stalled?.delay.maxMs).toBeGreaterThanOrEqual(150);
    expect(lines[0]?.level).toBe('info');
    expect(lines[0]?.delay.p99Ms).toBeLessThan(150);
  });
});
