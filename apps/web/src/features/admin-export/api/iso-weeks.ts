import { isoWeekOf } from '@manaboard/contract/admin';

const DAY_MS = 86_400_000;

export type WeekChoice = { week: string; monday: string };

/**
 * The `count` weeks before the one holding `now`, most recent (last week) first, each with its Monday (UTC) so
 * the select can say which days it covers. The current week is left out: it is not over, so not yet rewarded.
 */
export function recentWeeks(now: Date, count: number): WeekChoice[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const thisMonday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: count }, (_, i) => {
    const monday = new Date(thisMonday - (i + 1) * 7 * DAY_MS);
    return { week: isoWeekOf(monday), monday: monday.toISOString().slice(0, 10) };
  });
}
