/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return value ?? Number.NaN;
}

export const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** Rounds per figure: `BENCH_ROUNDS` (default 3), at least `min`; anything but a positive whole number stops the run. */
export function benchRounds(min = 1): number {
  const raw = process.env.BENCH_ROUNDS ?? '3';
  const rounds = Number(raw);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`BENCH_ROUNDS must be a positive whole number, not ${raw}`);
  return Math.max(min, rounds);
}
