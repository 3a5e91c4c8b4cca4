/** A tenth of a minute: the slot the stored-events rate is kept per (issue 31 item 4). */
export const TENTH_MS = 6_000;
/** How many complete tenths the progress row keeps: the last two minutes. */
export const TENTHS_KEPT = 20;
/** The span over which the cursor's gain on the wall clock is measured. */
export const GAIN_WINDOW_MS = 60_000;
/** Without a lag bound (READY_STREAM_MAX_LAG_SECONDS=0), a stream this close to the network counts as caught up. */
export const CAUGHT_UP_WITHOUT_BOUND_SECONDS = 10;

/** Events stored per second over one tenth of a minute that starts at `at`. */
export type StoredTenth = { at: string; perSecond: number };

/**
 * Whether and when the stream catches up with the network at its current rate: `gain` is how many seconds of the
 * network's time the stream's cursor advanced per second of the wall clock over the last minute (1: keeping pace);
 * `seconds` the time left to reach the network's present at that gain, lag / (gain − 1), set only when catching up.
 */
export type CatchUp = {
  state: 'caught-up' | 'catching-up' | 'not-catching-up' | 'unknown';
  seconds: number | null;
  gain: number | null;
};

/** Where the stream stands against its lag bound, at the gain its cursor has (null: not measured). */
export function catchUpOf(lagSeconds: number | null, boundSeconds: number, gain: number | null): CatchUp {
  const bound = boundSeconds > 0 ? boundSeconds : CAUGHT_UP_WITHOUT_BOUND_SECONDS;
  const g = gain === null ? null : Math.round(gain * 100) / 100;
  if (lagSeconds === null) return { state: 'unknown', seconds: null, gain: g };
  if (lagSeconds <= bound) return { state: 'caught-up', seconds: 0, gain: g };
  if (gain === null) return { state: 'unknown', seconds: null, gain: g };
  // A gain of 1.0001 is "catching up" in weeks: honest, and the panel prints the span.
  if (gain > 1) return { state: 'catching-up', seconds: Math.ceil(lagSeconds / (gain - 1)), gain: g };
  return { state: 'not-catching-up', seconds: null, gain: g };
}

type Sample = { wall: number; cursor: number };

/**
 * The stored events per tenth of a minute and the cursor's gain, from the engine's progress reports (kept in the
 * leader's memory: at most TENTHS_KEPT + 1 slots and one cursor sample a second for GAIN_WINDOW_MS, plus the newest).
 */
export class StreamTenths {
  private slots = new Map<number, number>();
  private samples: Sample[] = [];

  constructor(private since: number) {}

  /** Counts from here: a tenth that began before this is partial and not shown. */
  restart(now: number): void {
    this.since = now;
  }

  add(at: number, stored: number, cursorTime: Date | null): void {
    const slot = Math.floor(at / TENTH_MS);
    this.slots.set(slot, (this.slots.get(slot) ?? 0) + stored);
    for (const key of this.slots.keys()) if (key < slot - TENTHS_KEPT) this.slots.delete(key);
    if (!cursorTime) return;
    const sample = { wall: at, cursor: cursorTime.getTime() };
    const last = this.samples.at(-1);
    if (last && Math.floor(last.wall / 1000) === Math.floor(at / 1000))
      this.samples[this.samples.length - 1] = sample;
    else this.samples.push(sample);
  }

  /** The complete tenths of the last two minutes since the count began, oldest first. */
  tenths(now: number): StoredTenth[] {
    const current = Math.floor(now / TENTH_MS);
    const out: StoredTenth[] = [];
    for (let slot = current - TENTHS_KEPT; slot < current; slot++) {
      if (slot * TENTH_MS < this.since) continue;
      out.push({
        at: new Date(slot * TENTH_MS).toISOString(),
        perSecond: Math.round(((this.slots.get(slot) ?? 0) / (TENTH_MS / 1000)) * 10) / 10,
      });
    }
    return out;
  }

  /**
   * Network seconds the cursor advanced per wall second, from the oldest sample of the last minute to now (not to
   * the newest sample: a stalled stream's gain falls towards 0 as the wall clock runs on). Null under a tenth.
   */
  gain(now: number): number | null {
    const oldestKept = now - GAIN_WINDOW_MS;
    // The newest sample stays, so a stream stalled for longer than the window reads 0, not unknown.
    while (this.samples.length > 1 && (this.samples[0]?.wall ?? 0) < oldestKept) this.samples.shift();
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || now - first.wall < TENTH_MS) return null;
    return Math.max(0, (last.cursor - first.cursor) / (now - first.wall));
  }
}
