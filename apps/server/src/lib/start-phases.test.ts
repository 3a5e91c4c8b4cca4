import { describe, expect, it } from 'vitest';
import { logPhasesTo, markPhase } from './start-phases';

describe('the start phases', () => {
  it('keeps the phases marked before the logger exists, then writes each later one as it ends, in order', async () => {
    const lines: Array<{
      details: { phase: string; ms: number; cpuMs: number; atMs: number };
      message: string;
    }> = [];
    // A mark made the runner's way (scripts/run.mjs), before any server module.
    performance.mark('start: build checked', { detail: { cpuMicros: process.cpuUsage().user } });
    // The phase's wall time as the test sees it, twice: from outside both marks (a bound the phase cannot exceed,
    // however long the thread is held between a mark and the clock) and from inside them (one it cannot fall short
    // of).
    const outerBegan = performance.now();
    markPhase('config');
    const phaseBegan = performance.now();
    // 100 ms waited, well above the 20 ms of CPU below: the process's CPU time counts every thread (V8 compiles and
    // collects beside the test), and at 30 ms that background work once made the phase's CPU exceed its wall time.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Busy for 20 ms of CPU time (however long the machine takes to give it): CPU the phase spent, where the
    // 100 ms above were only waited.
    const cpuNow = () => process.cpuUsage().user + process.cpuUsage().system;
    const busyUntil = cpuNow() + 20_000;
    while (cpuNow() < busyUntil);
    const phaseLasted = performance.now() - phaseBegan;
    markPhase('database opened');
    const outerLasted = performance.now() - outerBegan;
    expect(lines).toEqual([]);
    logPhasesTo({
      debug: (details, message) => lines.push({ details: details as (typeof lines)[0]['details'], message }),
    });
    expect(lines.map((l) => [l.message, l.details.phase])).toEqual([
      ['start: phase', 'build checked'],
      ['start: phase', 'config'],
      ['start: phase', 'database opened'],
    ]);
    markPhase('listening');
    expect(lines.map((l) => l.details.phase)).toEqual([
      'build checked',
      'config',
      'database opened',
      'listening',
    ]);
    // Each phase lasts from the end of the one before; the first from the process's start.
    const [first, , opened, listening] = lines.map((l) => l.details);
    expect(first?.ms).toBe(first?.atMs);
    // The wall time between the two marks, between what the test saw inside and outside them (the process's CPU time
    // counts every thread, so 20 ms of it may pass in less than 20 ms of wall time: only the 100 ms wait is a floor).
    expect(opened?.ms).toBeGreaterThanOrEqual(Math.max(99, Math.floor(phaseLasted) - 1));
    expect(opened?.ms).toBeLessThanOrEqual(Math.ceil(outerLasted) + 1);
    expect(opened?.cpuMs).toBeGreaterThanOrEqual(19);
    expect(opened?.cpuMs).toBeLessThan(opened?.ms ?? 0);
    expect(
      Math.abs((listening?.atMs ?? 0) - (opened?.atMs ?? 0) - (listening?.ms ?? -9)),
    ).toBeLessThanOrEqual(1);
    // Written once: the marks are gone from the timeline.
    expect(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('start: '))).toEqual([]);
  });
});
