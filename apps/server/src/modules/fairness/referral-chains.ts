/** One referral: who referred whom, when the referee linked, and when the referee's network account was made. */
export type ReferralLink = {
  referrerId: string;
  refereeId: string;
  linkedAt: Date;
  refereeCreatedAt: Date | null;
};

export type ChainThresholds = {
  /** A referee whose account was younger than this when they linked is fresh. */
  freshDays: number;
  /** Fresh accounts a referrer's chain (everyone below them) must hold to be flagged. */
  minFresh: number;
  /** And the share of the chain they make up. */
  minFreshShare: number;
};

export const DEFAULT_CHAIN_THRESHOLDS: ChainThresholds = { freshDays: 30, minFresh: 3, minFreshShare: 0.6 };

export type ChainMember = {
  id: string;
  referrerId: string;
  depth: number;
  ageDaysAtLink: number | null;
  fresh: boolean;
};

export type ChainFinding = {
  memberId: string;
  /** Levels below the member (1: only direct referees). */
  depth: number;
  /** The most referees on one level. */
  width: number;
  size: number;
  fresh: number;
  freshShare: number;
  members: ChainMember[];
};

const DAY_MS = 86_400_000;

/**
 * Referral chains of fresh accounts: for every referrer, everyone below them in the referral tree (their
 * referees, their referees' referees, …) with each account's age when it linked. A referrer is flagged when the
 * chain holds at least `minFresh` fresh accounts and they are at least `minFreshShare` of it: a tree of
 * accounts made days before they linked, growing in depth or width, is how referral rewards are farmed. Accounts
 * of unknown age count as not fresh (the evidence shows them as unknown).
 */
export function findReferralChains(
  links: readonly ReferralLink[],
  thresholds: ChainThresholds = DEFAULT_CHAIN_THRESHOLDS,
): ChainFinding[] {
  const children = new Map<string, ReferralLink[]>();
  for (const link of links) children.set(link.referrerId, [...(children.get(link.referrerId) ?? []), link]);
  const findings: ChainFinding[] = [];
  for (const root of [...children.keys()].sort()) {
    const members: ChainMember[] = [];
    const seen = new Set<string>([root]);
    let level: string[] = [root];
    let depth = 0;
    let width = 0;
    while (level.length) {
      const next: string[] = [];
      for (const parent of level) {
        for (const link of children.get(parent) ?? []) {
          if (seen.has(link.refereeId)) continue;
          seen.add(link.refereeId);
          const age = link.refereeCreatedAt
            ? Math.floor((link.linkedAt.getTime() - link.refereeCreatedAt.getTime()) / DAY_MS)
            : null;
          members.push({
            id: link.refereeId,
            referrerId: parent,
            depth: depth + 1,
            ageDaysAtLink: age,
            fresh: age !== null && age < thresholds.freshDays,
          });
          next.push(link.refereeId);
        }
      }
      if (next.length) {
        depth++;
        width = Math.max(width, next.length);
      }
      level = next;
    }
    const fresh = members.filter((m) => m.fresh).length;
    const freshShare = members.length ? fresh / members.length : 0;
    if (fresh < thresholds.minFresh || freshShare < thresholds.minFreshShare) continue;
    findings.push({ memberId: root, depth, width, size: members.length, fresh, freshShare, members });
  }
  return findings;
}
