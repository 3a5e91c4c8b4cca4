import { ISO_WEEK_PATTERN, isoWeekOf } from '@manaboard/contract/admin';

export { isoWeekOf };
import { BadRequestError } from '../../lib/errors';

const DAY_MS = 86_400_000;

/**
 * The Monday 00:00 UTC that starts an ISO 8601 week (`2026-W47` → 2026-11-16). Week 1 holds the year's first
 * Thursday, so it is the week of 4 January. A week 53 the year does not have is a 400.
 */
export function isoWeekMonday(week: string): Date {
  const match = ISO_WEEK_PATTERN.exec(week);
  if (!match) throw new BadRequestError(`${week} is not an ISO week (YYYY-Www)`);
  const year = Number(match[1]);
  const number = Number(match[2]);
  const jan4 = Date.UTC(year, 0, 4);
  const weekday = (new Date(jan4).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const monday = new Date(jan4 - weekday * DAY_MS + (number - 1) * 7 * DAY_MS);
  if (number === 53 && isoWeekOf(monday) !== week) throw new BadRequestError(`${year} has no week 53`);
  return monday;
}
