const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Mana for display: rounded, with thousands separators (SPEC §3). */
export function formatMana(mana: number): string {
  return wholeNumber.format(Math.round(mana));
}

/** Counts (likes, posts…) with thousands separators. */
export const formatCount = formatMana;

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});

/** A post's time relative to now ("5m", "3h", "2d"), then a short date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  return shortDate.format(new Date(iso));
}

/** A date and UTC time for ledger lines ("Nov 18, 14:05 UTC"). */
export function formatDateTime(iso: string): string {
  return `${dateTime.format(new Date(iso))} UTC`;
}
