import type { RewardsExport, RewardsExportQuery, RewardsExportRow } from '@manaboard/contract/admin';
import type { Db } from '../../db/schema';
import { pageOfTotals } from '../leaderboard/leaderboard.repository';
import { referralLines } from '../mana/member-facts.repository';
import { utcDay } from '../mana/scoring';
import { isoWeekMonday } from './iso-week';

const WEEK_MS = 7 * 86_400_000;
/** Rows read per page of the leaderboard (the export reads the whole board of the period). */
export const EXPORT_PAGE = 1_000;

/**
 * Console, Rewards export: the leaderboard of an ISO week (`2026-W47`) or all time, read page by page through
 * the same repository query the public leaderboard (`GET /api/mana`) pages with, so rank, handle, Mana and posts
 * are exactly what the board shows for that period. Weekly totals are kept for every week (mana_totals, one
 * period per ISO week's Monday), so a past week exports as the board showed it. `referrals` counts the
 * member's credited referrals made in the period (their Mana is inside `mana`). Disqualified authors are out,
 * as on the board.
 */
export async function exportRewards(
  db: Db,
  query: Pick<RewardsExportQuery, 'period'>,
  now: Date,
): Promise<RewardsExport> {
  const from = query.period === 'all' ? null : isoWeekMonday(query.period);
  const until = from ? new Date(from.getTime() + WEEK_MS) : null;
  const key = from ? utcDay(from) : 'all';
  const board: Awaited<ReturnType<typeof pageOfTotals>>['rows'] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const { rows } = await pageOfTotals(db, { period: key, search: '', limit: EXPORT_PAGE, offset });
    board.push(...rows);
    if (rows.length < EXPORT_PAGE) break;
  }
  const referrals = new Map<string, number>();
  for (let i = 0; i < board.length; i += EXPORT_PAGE) {
    const ids = board.slice(i, i + EXPORT_PAGE).map((r) => r.author_id);
    for (const line of await referralLines(db, ids)) {
      if (from && until && (line.at < from || line.at >= until)) continue;
      referrals.set(line.authorId, (referrals.get(line.authorId) ?? 0) + 1);
    }
  }
  const rows: RewardsExportRow[] = board.map((r) => ({
    rank: r.rank,
    handle: r.handle,
    networkUserId: r.author_id,
    mana: r.mana,
    posts: r.posts,
    referrals: referrals.get(r.author_id) ?? 0,
  }));
  return {
    period: query.period,
    from: from?.toISOString() ?? null,
    until: until?.toISOString() ?? null,
    generatedAt: now.toISOString(),
    rows,
  };
}
