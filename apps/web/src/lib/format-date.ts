const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "November 22, 2026" — the long-form date of SPEC §2, in UTC so every reader sees the same day. */
export function formatLongDate(iso: string): string {
  return longDate.format(new Date(iso));
}
