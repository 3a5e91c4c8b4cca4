/**
 * The simulation's clock. Time stands still unless advanced, so a test can walk a week in milliseconds and a
 * demo can follow the wall clock; it never goes backwards.
 */
export class SimClock {
  constructor(private current: number) {}

  /** Milliseconds since the Unix epoch, simulated. */
  now(): number {
    return this.current;
  }

  /** Moves time forward (a negative step is ignored). */
  advance(ms: number): void {
    if (ms > 0) this.current += ms;
  }

  /** Jumps to a later time (an earlier one is ignored). */
  setTime(ms: number): void {
    if (ms > this.current) this.current = ms;
  }

  /** A clock for clients of the simulation: sleeping advances simulated time instead of waiting. */
  asClientClock(): { now: () => number; sleep: (ms: number) => Promise<void> } {
    return {
      now: () => this.now(),
      sleep: async (ms: number) => this.advance(ms),
    };
  }
}
