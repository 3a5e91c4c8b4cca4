import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import { DAY_MS } from '../../lib/time';
import { activeRules } from '../programme/programme.service';
import { firstPostAt } from './ledger-read.repository';
import * as store from './ledger-store.repository';
import { EditionBusyError, storeEdition, type StoredEdition } from './ledger-store.service';
import { weekAt, weeksBetween, type LedgerWeek } from './ledger-week';
import { LedgerMovedError } from './ledger-writer';
import type { NetworkName } from '../../social/social-network';

const HOUR_MS = 3_600_000;
/** A build that wrote nothing for this long belongs to a process that died. */
export const STALE_BUILD_MS = 10 * 60_000;
/** Weeks closed per run at most (a programme catching up on many weeks spreads them over a few runs). */
const WEEKS_PER_RUN = 8;

/** The database a ledger is read from, and its kind (a snapshot where it has them). */
export type LedgerContext = {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
};

/**
 * When nothing in a week can move any more: its end, plus the refresh window (every post written in it is final)
 * and the settle window (every interaction detected in it has settled).
 */
export function closeableAt(week: LedgerWeek, rules: ProgrammeRules): Date {
  return new Date(week.to.getTime() + rules.refreshWindowDays * DAY_MS + rules.settleByHours * HOUR_MS);
}

export type CloseOutcome = { closed: StoredEdition[]; waiting: string | null };

/**
 * The close job's step: each week from the programme's first, oldest first, that has no ledger yet and can no
 * longer move (closeableAt has passed and every post of it is final) gets its edition 1, built from the data and
 * stored byte for byte (storeEdition). Idempotent: a closed week is never built again, two workers never build
 * one edition, and a build that died is dropped and done again. Stops at the first week that must still wait
 * (`waiting` says which), or when the data moved under a build (it is tried again next run).
 */
export async function closeWeeks(
  context: LedgerContext & { network: NetworkName },
  now: Date,
): Promise<CloseOutcome> {
  const { db } = context;
  await store.dropStaleBuilds(db, new Date(now.getTime() - STALE_BUILD_MS));
  const first = await firstPostAt(db);
  const outcome: CloseOutcome = { closed: [], waiting: null };
  if (!first) return outcome;
  const active = await activeRules(db);
  const closed = new Set((await store.storedEditions(db)).map((e) => e.week));
  for (const week of weeksBetween(weekAt(first), weekAt(now))) {
    if (closed.has(week.week)) continue;
    if (outcome.closed.length >= WEEKS_PER_RUN || now < closeableAt(week, active.rules)) {
      outcome.waiting = week.week;
      break;
    }
    if (!(await store.weekPostsFinal(db, week))) {
      outcome.waiting = week.week;
      break;
    }
    try {
      const stored = await storeEdition(
        db,
        context.kind,
        {
          week,
          network: context.network,
          state: 'closed',
          closedAt: now,
          edition: 1,
          activeVersion: active.version,
        },
        { createdBy: 'worker', reason: null, now },
      );
      outcome.closed.push(stored);
    } catch (error) {
      // Moved data, another builder, or this build's row dropped as stale meanwhile: the next run tries again.
      if (
        error instanceof LedgerMovedError ||
        error instanceof EditionBusyError ||
        error instanceof store.EditionLostError
      ) {
        outcome.waiting = week.week;
        break;
      }
      throw error;
    }
  }
  return outcome;
}
