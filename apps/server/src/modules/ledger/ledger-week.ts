import { isoWeekOf } from '@manaboard/contract/admin';
import { DAY_MS } from '../../lib/time';
import { isoWeekMonday } from '../rewards-export/iso-week';

const WEEK_MS = 7 * DAY_MS;

/** An ISO week as the ledger names it, with the instants it runs between (Monday 00:00 UTC to the next). */
export type LedgerWeek = { week: string; from: Date; to: Date };

/** The week of a name (`2026-W48`); a week 53 its year does not have is a 400 (BadRequestError). */
export function ledgerWeek(week: string): LedgerWeek {
  const from = isoWeekMonday(week);
  return { week, from, to: new Date(from.getTime() + WEEK_MS) };
}

/** The ISO week an instant falls in. */
export function weekAt(at: Date): LedgerWeek {
  return ledgerWeek(isoWeekOf(at));
}

/** The week after this one. */
export function nextWeek(week: LedgerWeek): LedgerWeek {
  return weekAt(week.to);
}

/**
 * The weeks from `first` to `last` (both included), oldest first. A programme runs for years, not centuries: the
 * list is a few hundred weeks at most.
 */
export function weeksBetween(first: LedgerWeek, last: LedgerWeek): LedgerWeek[] {
  const weeks: LedgerWeek[] = [];
  for (let w = first; w.from.getTime() <= last.from.getTime(); w = nextWeek(w)) weeks.push(w);
  return weeks;
}
