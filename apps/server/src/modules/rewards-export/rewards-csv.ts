import type { RewardsExportRow } from '@manaboard/contract/admin';
import { toCsv } from '../audit/csv';

export const REWARDS_CSV_HEADER = [
  'rank',
  'handle',
  'network_user_id',
  'mana',
  'posts',
  'referrals',
] as const;

/** The export as CSV: a header line, then one line per member in rank order, CRLF line ends. */
export function rewardsCsv(rows: readonly RewardsExportRow[]): string {
  return toCsv([
    REWARDS_CSV_HEADER,
    ...rows.map((r) => [r.rank, r.handle, r.networkUserId, r.mana, r.posts, r.referrals]),
  ]);
}
