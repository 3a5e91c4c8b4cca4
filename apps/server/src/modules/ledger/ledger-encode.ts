import { canonicalLine, type LedgerLine } from '@manaboard/contract/ledger';
import { compareIds } from '../mana/scoring';

/** Any other line: the contract's canonical encoder. */
export function line(value: LedgerLine): string {
  return canonicalLine(value);
}

/** Strings in UTF-16 code-unit order, as the format orders addresses and ids. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Post lines: by `createdAt`, then the post id as `compareIds` (shorter first, then code units). */
export function comparePosts(a: { createdAt: string; post: string }, b: { createdAt: string; post: string }) {
  return compareCodeUnits(a.createdAt, b.createdAt) || compareIds(a.post, b.post);
}

/** Referral lines: by `at`, then the referee. */
export function compareReferrals(a: { at: string; referee: string }, b: { at: string; referee: string }) {
  return compareCodeUnits(a.at, b.at) || compareCodeUnits(a.referee, b.referee);
}

/** Interaction lines: by `at`, then the post, then the kind. */
export function compareInteractions(
  a: { at: string; post: string; kind: string },
  b: { at: string; post: string; kind: string },
) {
  return compareCodeUnits(a.at, b.at) || compareCodeUnits(a.post, b.post) || compareCodeUnits(a.kind, b.kind);
}

/** Members in rank order: more Mana first, then the earlier first tracked post, then the author id. */
export function compareMembers(
  a: { mana: number; firstTrackedAt: string; author: string },
  b: { mana: number; firstTrackedAt: string; author: string },
) {
  return (
    b.mana - a.mana ||
    compareCodeUnits(a.firstTrackedAt, b.firstTrackedAt) ||
    compareCodeUnits(a.author, b.author)
  );
}
