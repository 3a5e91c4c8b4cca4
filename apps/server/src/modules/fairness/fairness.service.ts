import type { Kysely } from 'kysely';
import type { FairnessFlag, FairnessFlagKind, FairnessFlagsQuery } from '@manaboard/contract/admin';
import type { Database } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { DAY_MS } from '../../lib/time';
import { recordAudit } from '../audit/audit.repository';
import * as repo from './fairness.repository';
import { DEFAULT_CHAIN_THRESHOLDS, findReferralChains, type ChainThresholds } from './referral-chains';
import { DEFAULT_RING_THRESHOLDS, findRings, type RingThresholds } from './rings';
import { DEFAULT_SPIKE_THRESHOLDS, findSpikes, type SpikeThresholds } from './spikes';

/** How far back the interaction graph and the daily history reach. */
export const FAIRNESS_WINDOW_DAYS = 28;

export type FairnessSettings = {
  windowDays: number;
  rings: RingThresholds;
  chains: ChainThresholds;
  spikes: SpikeThresholds;
};

export const DEFAULT_FAIRNESS_SETTINGS: FairnessSettings = {
  windowDays: FAIRNESS_WINDOW_DAYS,
  rings: DEFAULT_RING_THRESHOLDS,
  chains: DEFAULT_CHAIN_THRESHOLDS,
  spikes: DEFAULT_SPIKE_THRESHOLDS,
};

export type FairnessRun = { flags: Record<FairnessFlagKind, number>; authors: number; ms: number };

const pct = (x: number) => `${Math.round(x * 100)}%`;
const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Runs the three detectors over the stored data (network-neutral: the same tables on every network) and makes
 * the stored flags match, in one transaction; reviews of flags that stand are kept. Advice only: nothing here
 * disqualifies anyone. See docs/fairness.md for the method and thresholds.
 */
export async function recomputeFairnessFlags(
  db: Kysely<Database>,
  now: Date,
  settings: FairnessSettings = DEFAULT_FAIRNESS_SETTINGS,
): Promise<FairnessRun> {
  const started = performance.now();
  const since = new Date(now.getTime() - settings.windowDays * DAY_MS);
  const counts = await repo.engagementCounts(db, since);
  const rings = findRings(counts, settings.rings);
  const chains = findReferralChains(await repo.referralLinks(db), settings.chains);
  const spikes = findSpikes(await repo.dailyEngagement(db, since), settings.spikes);
  const ids = new Set<string>([
    ...rings.flatMap((r) => [...r.cluster, ...r.topEngagers.map((e) => e.id)]),
    ...chains.flatMap((c) => [c.memberId, ...c.members.map((m) => m.id)]),
    ...spikes.map((s) => s.memberId),
  ]);
  const handles = await repo.handlesOf(db, [...ids]);
  const name = (id: string) => handles.get(id) ?? id;
  const flags: repo.NewFlag[] = [
    ...rings.map((r) => ({
      subjectId: r.memberId,
      kind: 'ring' as const,
      handle: name(r.memberId),
      score: round(r.share),
      reason:
        `${pct(r.share)} of the engagement @${name(r.memberId)} received (${r.fromCluster} of ${r.received}) ` +
        `came from a group of ${r.cluster.length} accounts that engage with each other ` +
        `(${pct(r.density)} of pairs both ways)`,
      evidence: {
        share: round(r.share),
        received: r.received,
        fromCluster: r.fromCluster,
        density: round(r.density),
        reciprocity: round(r.reciprocity),
        cluster: r.cluster.map((id) => ({ id, handle: name(id) })),
        topEngagers: r.topEngagers.map((e) => ({ ...e, handle: name(e.id) })),
        windowDays: settings.windowDays,
      },
    })),
    ...chains.map((c) => ({
      subjectId: c.memberId,
      kind: 'referral_chain' as const,
      handle: name(c.memberId),
      score: round(c.freshShare),
      reason:
        `${c.fresh} of the ${c.size} accounts referred through @${name(c.memberId)} ` +
        `(${c.depth} level${c.depth === 1 ? '' : 's'} deep, up to ${c.width} wide) were under ` +
        `${settings.chains.freshDays} days old when they linked`,
      evidence: {
        depth: c.depth,
        width: c.width,
        size: c.size,
        fresh: c.fresh,
        freshShare: round(c.freshShare),
        freshDays: settings.chains.freshDays,
        members: c.members.slice(0, 100).map((m) => ({ ...m, handle: name(m.id) })),
      },
    })),
    ...spikes.map((s) => ({
      subjectId: s.memberId,
      kind: 'spike' as const,
      handle: name(s.memberId),
      score: round(Math.min(1, s.ratio / (settings.spikes.minRatio * 4))),
      reason:
        `On ${s.day} @${name(s.memberId)}'s posts received ${s.engagement} engagements, ` +
        `${round(s.ratio)}× their median day (${s.median}) over ${s.historyDays} other active days`,
      evidence: { ...s, ratio: round(s.ratio), robustZ: round(s.robustZ), windowDays: settings.windowDays },
    })),
  ];
  await db.transaction().execute((trx) => repo.replaceFlags(trx, flags, now));
  const authors = new Set(counts.flatMap((c) => [c.actorId, c.authorId])).size;
  return {
    flags: { ring: rings.length, referral_chain: chains.length, spike: spikes.length },
    authors,
    ms: Math.round(performance.now() - started),
  };
}

type FlagRow = Awaited<ReturnType<typeof repo.flagsOf>>[number];

const toFlag = (r: FlagRow): FairnessFlag => ({
  subjectId: r.subject_id,
  handle: r.handle,
  kind: r.kind,
  score: r.score,
  reason: r.reason,
  evidence: r.evidence,
  firstFlaggedAt: r.first_flagged_at.toISOString(),
  computedAt: r.computed_at.toISOString(),
  review:
    r.reviewed_at && r.reviewed_by
      ? { at: r.reviewed_at.toISOString(), by: r.reviewed_by, note: r.review_note ?? '' }
      : null,
});

/** The flags, strongest first (for the console's list). */
export async function listFairnessFlags(db: Kysely<Database>, query: FairnessFlagsQuery) {
  const { rows, total } = await repo.listFlags(db, query);
  const last = rows.reduce<Date | null>(
    (max, r) => (!max || r.computed_at > max ? r.computed_at : max),
    null,
  );
  return { flags: rows.map(toFlag), total, computedAt: last?.toISOString() ?? null };
}

/** One member's flags (by network user id), for the member's page. */
export async function memberFairnessFlags(db: Kysely<Database>, subjectId: string) {
  return { subjectId, flags: (await repo.flagsOf(db, subjectId)).map(toFlag) };
}

/** An operator reviews a flag (what they concluded), audited with before and after; NotFoundError when gone. */
export async function reviewFairnessFlag(
  db: Kysely<Database>,
  input: { subjectId: string; kind: FairnessFlagKind; note: string },
  options: { actor: string; now: Date },
): Promise<FairnessFlag> {
  return db.transaction().execute(async (trx) => {
    const before = (await repo.flagsOf(trx, input.subjectId)).find((f) => f.kind === input.kind);
    const after = await repo.setReview(trx, input, { by: options.actor, note: input.note, at: options.now });
    if (!before || !after) throw new NotFoundError('No such flag (the detector may have withdrawn it)');
    await recordAudit(trx, {
      actor: options.actor,
      action: 'fairness.review',
      subject: `${input.kind}:${input.subjectId}`,
      details: { before: toFlag(before).review, after: toFlag(after).review },
    });
    return toFlag(after);
  });
}
