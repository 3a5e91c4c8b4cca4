import { ISO_WEEK_PATTERN } from '@manaboard/contract/admin';
import { BadRequestError } from '../../errors';

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

/** The ISO week (`YYYY-Www`) containing a moment. */
export function isoWeekOf(at: Date): string {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  const thursday = new Date(day + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}
