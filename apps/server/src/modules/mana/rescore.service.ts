import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { OfficialHandleRule } from '../../social/social-network';
import { recordAudit } from '../audit/audit.repository';
import { activeRules, parseRules, saveRules, type ActiveRules } from '../programme/programme.service';
import { readState, saveCursor } from './ingest-state.repository';
import { markRescorableAuthorsDirty, repricePendingInteractions } from './rescore.repository';
import { recomputeDirtyTotals } from './totals.service';

/** Where the version of the rules the stored lines were last scored with is kept (the totals job's cursor). */
const SCORED_WITH = 'totals';

export type Rescore = { flaggedAuthors: number; repricedLines: number; recomputedAuthors: number };

/** The rules version the ledger was last rescored with (undefined before the first totals run). */
export async function scoredRulesVersion(db: Kysely<Database>): Promise<number | undefined> {
  const version = (await readState(db, SCORED_WITH))?.cursor.rulesVersion;
  return typeof version === 'number' ? version : undefined;
}

/**
 * Brings the ledger in line with a rules version: pending interaction lines take its rewards and settle times,
 * every author with a post not yet fixed is recomputed with it (Mana, daily-limit selection, multiplier, totals
 * and ranks); final posts keep their Mana, and credited lines theirs. Idempotent: running it again changes
 * nothing. The version is recorded last, so a crash midway leaves it to be run again.
 */
export async function rescoreForRules(
  db: Kysely<Database>,
  active: ActiveRules,
  now: Date,
): Promise<Rescore> {
  const { flaggedAuthors, repricedLines } = await db.transaction().execute(async (trx) => ({
    repricedLines: await repricePendingInteractions(trx, active.rules),
    flaggedAuthors: await markRescorableAuthorsDirty(trx),
  }));
  const recomputedAuthors = await recomputeDirtyTotals(db, active, now);
  await saveCursor(db, SCORED_WITH, { rulesVersion: active.version }, now);
  return { flaggedAuthors, repricedLines, recomputedAuthors };
}

/**
 * The totals job's step: recomputes the authors waiting for it, and first rescores everything the rules affect
 * when the rules in force are not the version the ledger was scored with (an operator stored a new one, from
 * any process). Returns how many authors were recomputed.
 */
export async function recomputeTotalsWithRules(db: Kysely<Database>, now: Date): Promise<number> {
  const active = await activeRules(db);
  if ((await scoredRulesVersion(db)) !== active.version) {
    return (await rescoreForRules(db, active, now)).recomputedAuthors;
  }
  return recomputeDirtyTotals(db, active, now);
}

export type RulesChange = ActiveRules & { unchanged: boolean; changedFields: string[]; rescore: Rescore };

/**
 * An operator changes the programme rules: the new set is validated and stored as the next version (audited in
 * the same transaction, with the rules before and after), then everything it affects is rescored at once, so the leaderboard shows the new
 * rules. Rules equal to those in force store nothing.
 */
export async function changeRules(
  db: Kysely<Database>,
  input: unknown,
  options: { source: string; actor: string; now: Date; handles?: OfficialHandleRule | undefined },
): Promise<RulesChange> {
  const before = await activeRules(db);
  const parsed = parseRules(input, options.source, options.handles);
  const next = await db.transaction().execute(async (trx) => {
    const changedFields = Object.keys(parsed).filter(
      (key) =>
        !isDeepStrictEqual(parsed[key as keyof typeof parsed], before.rules[key as keyof typeof parsed]),
    );
    if (changedFields.length === 0) return { ...before, changedFields };
    const saved = await saveRules(trx, parsed, options.source);
    await recordAudit(trx, {
      actor: options.actor,
      action: 'programme.rules',
      subject: `v${saved.version}`,
      details: {
        source: options.source,
        from: before.version,
        changed: changedFields,
        before: before.rules,
        after: saved.rules,
      },
    });
    return { ...saved, changedFields };
  });
  const unchanged = next.changedFields.length === 0;
  const rescore = unchanged
    ? { flaggedAuthors: 0, repricedLines: 0, recomputedAuthors: 0 }
    : await rescoreForRules(db, { version: next.version, rules: next.rules }, options.now);
  return { version: next.version, rules: next.rules, unchanged, changedFields: next.changedFields, rescore };
}
