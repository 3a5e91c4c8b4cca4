import { AppError, NotFoundError } from '../../lib/errors';
import { activeRules } from '../programme/programme.service';
import type { LedgerContext } from './ledger-close.service';
import { inSnapshot } from './ledger-snapshot';
import * as store from './ledger-store.repository';
import { storeEdition, storedBytes, type StoredEdition } from './ledger-store.service';
import { summarize, type LedgerSummary } from './ledger-summary';
import { ledgerWeek } from './ledger-week';
import { ensureRefereeSalt } from './ledger-read.repository';
import { ledgerText, type LedgerPlan } from './ledger-writer';

/** Members listed at most in a check (the counts say how many changed in all). */
const MEMBERS_SHOWN = 50;

export type MemberChange = {
  author: string;
  handle: string;
  before: { mana: number; rank: number } | null;
  after: { mana: number; rank: number } | null;
};

export type WeekCheck = {
  week: string;
  /** The newest stored edition, the one compared. */
  edition: number;
  stored: string;
  current: string;
  /** The bytes are the same: the data still give exactly this edition. */
  identical: boolean;
  /** A figure differs (Mana, ranks, counts, lines): what a correction is for. */
  figuresChanged: boolean;
  membersChanged: number;
  members: MemberChange[];
};

function memberChanges(before: LedgerSummary, after: LedgerSummary): MemberChange[] {
  const changes: MemberChange[] = [];
  for (const author of new Set([...before.members.keys(), ...after.members.keys()])) {
    const b = before.members.get(author);
    const a = after.members.get(author);
    if (b && a && b.mana === a.mana && b.rank === a.rank) continue;
    changes.push({
      author,
      handle: (a ?? b)?.handle ?? '',
      before: b ? { mana: b.mana, rank: b.rank } : null,
      after: a ? { mana: a.mana, rank: a.rank } : null,
    });
  }
  return changes.sort(
    (x, y) => (x.after?.rank ?? x.before?.rank ?? 0) - (y.after?.rank ?? y.before?.rank ?? 0),
  );
}

async function newestOf(context: LedgerContext, week: string) {
  ledgerWeek(week); // a 400 for a week its year does not have
  const stored = await store.storedEdition(context.db, week);
  if (!stored) throw new NotFoundError(`Week ${week} has no closed ledger yet`);
  return stored;
}

/**
 * Compares a closed week's newest edition with the ledger its data give now (the same edition number and
 * closing time, so only the data can differ): whether the bytes are the same, whether a figure changed (an
 * operator's rescore, a disqualification, a post found late), and which members moved. Reads the stored bytes
 * and rebuilds the week, a piece at a time each.
 */
export async function checkWeek(context: LedgerContext, week: string): Promise<WeekCheck> {
  const stored = await newestOf(context, week);
  const active = await activeRules(context.db);
  const plan: LedgerPlan = {
    week: ledgerWeek(week),
    network: stored.network,
    state: 'closed',
    closedAt: stored.closed_at,
    edition: stored.edition,
    activeVersion: active.version,
  };
  const key = { week, edition: stored.edition };
  const before = await summarize(storedBytes(context.db, key));
  await ensureRefereeSalt(context.db);
  const after = await summarize(inSnapshot(context.db, context.kind, (readers) => ledgerText(readers, plan)));
  const members = memberChanges(before, after);
  return {
    week,
    edition: stored.edition,
    stored: before.sha256,
    current: after.sha256,
    identical: before.sha256 === after.sha256,
    figuresChanged: before.figures !== after.figures,
    membersChanged: members.length,
    members: members.slice(0, MEMBERS_SHOWN),
  };
}

export type Correction = { check: WeekCheck; edition: StoredEdition };

/**
 * An operator's correction of a closed week whose figures changed: the week is built again from the data as they
 * stand and stored as the next edition, dated, beside the ones before (which never change), with the same closing
 * time; the audit line (who, why, the hashes before and after, how many members moved) is written with it. A
 * week whose figures did not change is refused (409): a like deleted since, or a renamed member, is no
 * correction, and the verifier reports those itself.
 */
export async function issueCorrection(
  context: LedgerContext,
  week: string,
  input: { actor: string; reason: string; now: Date },
): Promise<Correction> {
  const check = await checkWeek(context, week);
  if (!check.figuresChanged) {
    throw new AppError(
      409,
      'CONFLICT',
      check.identical
        ? `Week ${week} still gives edition ${check.edition} byte for byte: nothing to correct.`
        : `Week ${week}'s figures are those of edition ${check.edition}; only records or handles changed since (a record deleted after the week closed, a renamed member): no correction is needed.`,
    );
  }
  const stored = await newestOf(context, week);
  const active = await activeRules(context.db);
  const edition = await store.nextEditionNumber(context.db, week);
  const done = await storeEdition(
    context.db,
    context.kind,
    {
      week: ledgerWeek(week),
      network: stored.network,
      state: 'closed',
      closedAt: stored.closed_at,
      edition,
      activeVersion: active.version,
    },
    {
      createdBy: input.actor,
      reason: input.reason,
      now: input.now,
      audit: (made) => ({
        actor: input.actor,
        action: 'ledger.correction',
        subject: week,
        details: {
          edition: made.edition,
          reason: input.reason,
          before: { edition: stored.edition, sha256: stored.sha256 },
          after: { edition: made.edition, sha256: made.sha256 },
          membersChanged: check.membersChanged,
        },
      }),
    },
  );
  return { check, edition: done };
}
