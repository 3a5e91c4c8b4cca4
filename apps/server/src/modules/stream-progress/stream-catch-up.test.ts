import { describe, expect, it } from 'vitest';
import { catchUpOf, StreamTenths, TENTH_MS } from './stream-catch-up';

// A tenth-of-a-minute boundary, so the slots of the tests line up with the wall clock's.
const START = Date.parse('2026-11-25T12:00:00Z');

describe('the time left to catch up', () => {
  it('is lag / (gain − 1) while the cursor gains on the wall clock', () => {
    // 10 min behind, 3 network seconds a second: 2 gained a second, 300 s to go.
    expect(catchUpOf(600, 120, 3)).toEqual({ state: 'catching-up', seconds: 300, gain: 3 });
    expect(catchUpOf(3_600, 120, 1.5)).toEqual({ state: 'catching-up', seconds: 7_200, gain: 1.5 });
  });

  it('is not catching up when the cursor keeps pace or falls behind above the bound', () => {
    expect(catchUpOf(600, 120, 1)).toEqual({ state: 'not-catching-up', seconds: null, gain: 1 });
    expect(catchUpOf(600, 120, 0.4)).toEqual({ state: 'not-catching-up', seconds: null, gain: 0.4 });
    expect(catchUpOf(600, 120, 0)).toEqual({ state: 'not-catching-up', seconds: null, gain: 0 });
  });

  it('is caught up within the bound, whatever the gain', () => {
    expect(catchUpOf(2, 120, 1)).toEqual({ state: 'caught-up', seconds: 0, gain: 1 });
    expect(catchUpOf(120, 120, null)).toEqual({ state: 'caught-up', seconds: 0, gain: null });
    // Without a bound, within 10 s.
    expect(catchUpOf(9, 0, 1).state).toBe('caught-up');
    expect(catchUpOf(11, 0, 1).state).toBe('not-catching-up');
  });

  it('is unknown with no lag, or no gain measured above the bound', () => {
    expect(catchUpOf(null, 120, 2)).toEqual({ state: 'unknown', seconds: null, gain: 2 });
    expect(catchUpOf(600, 120, null)).toEqual({ state: 'unknown', seconds: null, gain: null });
  });
});

describe('the stored events per tenth of a minute and the cursor gain', () => {
  /** `seconds` seconds of reports, one a second, `stored` each, the cursor advancing `gain` network s a second. */
  function run(
    tenths: StreamTenths,
    from: number,
    seconds: number,
    stored: number,
    cursorFrom: number,
    gain: number,
  ) {
    for (let i = 1; i <= seconds; i++)
      tenths.add(from + i * 1000 - 1, stored, new Date(cursorFrom + i * gain * 1000));
  }

  it('has no tenth and no gain before any report', () => {
    const tenths = new StreamTenths(START);
    expect(tenths.tenths(START + 3_000)).toEqual([]);
    expect(tenths.gain(START + 3_000)).toBeNull();
  });

  it('gives each complete tenth’s rate, oldest first, and only complete ones', () => {
    const tenths = new StreamTenths(START);
    run(tenths, START, 6, 600, START - 600_000, 3); // 600 a second in the first tenth
    run(tenths, START + TENTH_MS, 6, 120, START - 582_000, 3); // 120 a second in the second
    run(tenths, START + 2 * TENTH_MS, 3, 50, START - 564_000, 3); // half of the third (still running)
    expect(tenths.tenths(START + 2 * TENTH_MS + 3_000)).toEqual([
      { at: '2026-11-25T12:00:00.000Z', perSecond: 600 },
      { at: '2026-11-25T12:00:06.000Z', perSecond: 120 },
    ]);
    // A tenth with no report reads 0; twenty tenths are kept, the oldest drop off.
    const later = START + 30 * TENTH_MS;
    const kept = tenths.tenths(later);
    expect(kept).toHaveLength(20);
    expect(kept[0]?.at).toBe(new Date(later - 20 * TENTH_MS).toISOString());
    expect(kept.every((t) => t.perSecond === 0)).toBe(true);
  });

  it('leaves out the tenth the count began in', () => {
    const tenths = new StreamTenths(START + 2_000);
    run(tenths, START + 2_000, 10, 60, START, 1);
    expect(tenths.tenths(START + 12_000)).toEqual([{ at: '2026-11-25T12:00:06.000Z', perSecond: 60 }]);
  });

  it('measures the gain of a stream catching up, keeping pace and stalled', () => {
    const catching = new StreamTenths(START);
    run(catching, START, 60, 1_000, START - 600_000, 3);
    expect(catching.gain(START + 60_000)).toBeCloseTo(3, 1);

    const live = new StreamTenths(START);
    run(live, START, 30, 50, START - 1_000, 1);
    expect(live.gain(START + 30_000)).toBeCloseTo(1, 1);

    // Reports stop for two minutes: the wall clock runs on, the cursor does not.
    const stalled = new StreamTenths(START);
    run(stalled, START, 10, 50, START - 1_000, 1);
    expect(stalled.gain(START + 20_000)).toBeCloseTo(0.5, 1);
    expect(stalled.gain(START + 130_000)).toBe(0);
  });

  it('has no gain under a tenth of a minute of reports', () => {
    const tenths = new StreamTenths(START);
    run(tenths, START, 4, 50, START - 1_000, 2);
    expect(tenths.gain(START + 4_000)).toBeNull();
  });
});
