/**
 * A record's time as its client claims it (a like's or repost's `createdAt`), kept when it is sane, else clamped
 * into [the Unix epoch, `latest`]: `latest` is when the network committed the record (or, for a record read back
 * later, now). A client can write any date, and one of year +10000 would give the ledger a time outside its format
 * (a five-digit year), so any account could make a week's ledger fail. An unreadable claim (NaN) reads as `latest`.
 */
export function claimedTime(claimedMs: number, latest: Date): Date {
  const latestMs = latest.getTime();
  if (Number.isNaN(claimedMs)) return new Date(latestMs);
  return new Date(Math.min(Math.max(claimedMs, 0), latestMs));
}
