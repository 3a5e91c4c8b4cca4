import { describe, expect, it } from 'vitest';
import { claimedTime } from './bluesky-claimed-time';

const COMMIT = new Date('2026-11-24T10:00:00.000Z');

describe('a client-claimed record time', () => {
  it('is kept when it is between the Unix epoch and the commit', () => {
    expect(claimedTime(Date.parse('2026-11-24T09:59:59.123Z'), COMMIT)).toEqual(
      new Date('2026-11-24T09:59:59.123Z'),
    );
    expect(claimedTime(0, COMMIT)).toEqual(new Date(0));
    expect(claimedTime(COMMIT.getTime(), COMMIT)).toEqual(COMMIT);
  });

  it('is clamped to the commit when it claims a later time (year +10000 among them)', () => {
    expect(claimedTime(Date.parse('+010000-01-01T00:00:00.000Z'), COMMIT)).toEqual(COMMIT);
    expect(claimedTime(COMMIT.getTime() + 1, COMMIT)).toEqual(COMMIT);
  });

  it('is clamped to the Unix epoch when it claims an earlier time, and reads as the commit when unreadable', () => {
    expect(claimedTime(Date.parse('-000500-01-01T00:00:00.000Z'), COMMIT)).toEqual(new Date(0));
    expect(claimedTime(Date.parse('yesterday'), COMMIT)).toEqual(COMMIT);
  });
});
