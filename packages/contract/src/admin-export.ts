import * as z from 'zod/mini';

/**
 * The console's Rewards export (issue 13, section 6): for an ISO week or all time, the leaderboard as it
 * stands for that period (rank, handle, network user id, Mana, posts) plus the credited referrals of the
 * period, as CSV (formula-injection safe) or JSON, so the community can distribute rewards from it.
 * Service: modules/rewards-export (exportRewards, rewardsCsv).
 */

/** An ISO 8601 week, `2026-W47` (weeks 01–53). */
export const ISO_WEEK_PATTERN = /^(\d{4})-W(0[1-9]|[1-4]\d|5[0-3])$/;

/** One member's line of the export, in leaderboard rank order. */
export const rewardsExportRowSchema = z.object({
  rank: z.number(),
  handle: z.string(),
  networkUserId: z.string(),
  mana: z.number(),
  posts: z.number(),
  /** Credited referrals of the period (each already counted in `mana`). */
  referrals: z.number(),
});
export type RewardsExportRow = z.infer<typeof rewardsExportRowSchema>;

export const rewardsExportSchema = z.object({
  /** `all` or the ISO week asked for. */
  period: z.string(),
  /** The week's Monday (UTC) and the next Monday; null for all time. */
  from: z.nullable(z.string()),
  until: z.nullable(z.string()),
  generatedAt: z.string(),
  rows: z.array(rewardsExportRowSchema),
});
export type RewardsExport = z.infer<typeof rewardsExportSchema>;

const DAY_MS = 86_400_000;

/** The ISO 8601 week (`YYYY-Www`) holding a moment, in UTC: the export's periods, on the server and the console. */
export function isoWeekOf(at: Date): string {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  const thursday = new Date(day + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}
