import { describe, expect, it } from 'vitest';
import { StreamInterest } from '../../social/stream-interest';
import { RELAY_REPLAY_MS } from './bluesky-facts';
import { Refill, refillRange, type RefillReport } from './bluesky-refill';

const recent = () => new Date(Date.now() - 60_000).toISOString();

function sink() {
  const reports: RefillReport[] = [];
  return { reports, refilled: (report: RefillReport) => void reports.push(report) };
}

describe('the refill of the waiting room at a start', () => {
  it('reads again from the oldest waiting like through the stored cursor, only what this interest has not read', () => {
    const s = sink();
    const cursor = { seq: 200, time: recent() };
    // A new process: from the like's seq (the relay sends what comes after the cursor asked).
    expect(refillRange(cursor, { seq: 150, time: recent() }, new StreamInterest(), s)).toEqual({
      from: 149,
      through: 200,
      time: cursor.time,
    });
    // Nothing waits, or it waits at or after the cursor, or nothing was stored yet: no refill.
    expect(refillRange(cursor, null, new StreamInterest(), s)).toBeNull();
    expect(refillRange(cursor, { seq: 201 }, new StreamInterest(), s)).toBeNull();
    expect(refillRange(null, { seq: 150 }, new StreamInterest(), s)).toBeNull();
    // The same process reading again (its waiting room is whole): no refill; half way through one: the rest.
    const read = new StreamInterest();
    read.readingAt(230, null);
    expect(refillRange(cursor, { seq: 150 }, read, s)).toBeNull();
    const halfway = new StreamInterest();
    halfway.readingAt(170, null);
    expect(refillRange(cursor, { seq: 150 }, halfway, s)).toMatchObject({ from: 170, through: 200 });
    expect(s.reports).toEqual([]);
  });

  it('falls back to the stored cursor when the relay no longer replays the like, and says so once', () => {
    const s = sink();
    const interest = new StreamInterest();
    const old = new Date(Date.now() - RELAY_REPLAY_MS - 60_000).toISOString();
    const cursor = { seq: 200, time: recent() };
    expect(refillRange(cursor, { seq: 150, time: old }, interest, s)).toBeNull();
    expect(refillRange(cursor, { seq: 150, time: old }, interest, s)).toBeNull();
    expect(s.reports).toEqual([{ kind: 'too-old', seq: 150, time: old, through: 200 }]);
  });

  it('ends at the stored cursor, or at the first frame after it when the relay no longer has that one', () => {
    const s = sink();
    const interest = new StreamInterest();
    const refill = new Refill({ from: 149, through: 200, time: null }, interest, s);
    expect(interest.refilling).toBe(true);
    expect(refill.absorbs(150, 149)).toBe(true);
    expect(refill.absorbs(null, 150)).toBe(true); // e.g. the relay's OutdatedCursor info
    expect(refill.absorbs(150, 150)).toBe(true); // a re-send: absorbed, not counted twice
    expect(refill.absorbs(199, 150)).toBe(true);
    expect(refill.absorbs(205, 199)).toBe(false);
    expect(interest.refilling).toBe(false);
    expect(refill.absorbs(206, 205)).toBe(false);
    expect(s.reports).toEqual([
      { kind: 'refilled', asked: 149, through: 200, frames: 2, first: 150, waiting: 0 },
    ]);
    const exact = new Refill({ from: 149, through: 200, time: null }, interest, s);
    expect(exact.absorbs(200, 149)).toBe(true);
    expect(exact.absorbs(201, 200)).toBe(false);
    expect(s.reports.at(-1)).toMatchObject({ frames: 1, first: 200 });
  });

  it('ends after as many frames as its range holds, when the relay never reaches the stored cursor (its seqs started again lower)', () => {
    const s = sink();
    const interest = new StreamInterest();
    const refill = new Refill({ from: 149, through: 160, time: null }, interest, s);
    expect(refill.absorbs(150, 149)).toBe(true);
    expect(refill.absorbs(151, 150)).toBe(true);
    // The relay starts again from 1: its frames are absorbed until the range's width (11 frames in all) is used.
    let taken = 2;
    for (let seq = 1; seq < 100 && refill.absorbs(seq, 151); seq++) taken++;
    expect(taken).toBe(11);
    expect(interest.refilling).toBe(false);
    expect(s.reports).toEqual([
      { kind: 'refilled', asked: 149, through: 160, frames: 2, first: 150, waiting: 0 },
    ]);
  });
});
