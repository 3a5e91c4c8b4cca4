import type { RewardsExportRow } from '@manaboard/contract/admin';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text that a spreadsheet would
 * run as a formula (= + - @, tab, carriage return first) gets a leading apostrophe (OWASP's CSV injection
 * advice), so a handle or id can never become a formula; numbers are written as they are.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

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
  const lines = [REWARDS_CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push([r.rank, r.handle, r.networkUserId, r.mana, r.posts, r.referrals].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
