/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return value ?? Number.NaN;
}

export const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
export const fmt = (n: number, digits = 2) => n.toFixed(digits);
