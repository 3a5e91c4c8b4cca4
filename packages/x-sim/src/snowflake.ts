/** X's epoch for snowflake ids (2010-11-04T01:42:54.657Z). */
export const TWITTER_EPOCH_MS = 1288834974657n;

/**
 * A decimal snowflake id as X makes them: ((ms - X's epoch) << 22) | worker-and-sequence bits, so ids sort by
 * creation time. Anything dated before X's epoch gets a small id, as X's oldest accounts have.
 */
export function snowflake(ms: number, sequence: number): string {
  const since = BigInt(Math.floor(ms)) - TWITTER_EPOCH_MS;
  const time = since > 0n ? since : 0n;
  return ((time << 22n) | BigInt(sequence & 0x3fffff)).toString();
}

/** The creation time encoded in a snowflake id. */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + TWITTER_EPOCH_MS);
}

/** Compares decimal ids numerically. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
