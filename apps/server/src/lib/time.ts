/** One day in milliseconds: ages and windows are counted in days of 24 hours (UTC, no calendar). */
export const DAY_MS = 86_400_000;
