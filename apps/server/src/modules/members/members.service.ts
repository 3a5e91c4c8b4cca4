import type { MemberDetail, MemberSearchQuery, MemberSearchResult } from '@manaboard/contract/admin';
import { NotFoundError } from '../../lib/errors';
import { appealsOf } from '../appeals/appeals.service';
import { breakdownOf } from '../leaderboard/breakdown.service';
import type { LeaderboardDeps } from '../leaderboard/leaderboard.service';
import * as repo from './members.repository';

/** How many audit lines a member's page shows (newest first); the audit log section has the rest. */
export const MEMBER_HISTORY_LIMIT = 100;

/**
 * Console, Members: tracked authors and linked members whose handle or display name contains the query
 * (exact handle, then prefixes, then the rest), paginated, with all-time Mana and rank.
 */
export async function searchMembers(
  deps: Pick<LeaderboardDeps, 'db'>,
  query: MemberSearchQuery,
): Promise<MemberSearchResult> {
  const rows = await repo.searchMembers(deps.db, query);
  return {
    members: rows.map((r) => ({
      memberId: r.member_id,
      handle: r.handle,
      displayName: r.display_name,
      tracked: Boolean(r.tracked),
      linked: Boolean(r.linked),
      disqualified: Boolean(r.disqualified),
      mana: r.mana === null ? null : Number(r.mana),
      rank: r.rank === null ? null : Number(r.rank),
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

const referralView = (r: Awaited<ReturnType<typeof repo.referralsOf>>[number]) => ({
  handle: r.handle,
  memberId: r.network_user_id,
  status: r.status,
  rewardMana: r.reward_mana,
  at: r.created_at.toISOString(),
});

/**
 * Console, a member's page (by network user id): profile, linked account, all-time Mana breakdown (the
 * leaderboard's own, disqualified authors included), referrals both ways with their status, the
 * disqualification (reason, who, when), appeals and the audit history. Unknown member → 404.
 */
export async function memberDetail(deps: LeaderboardDeps, memberId: string): Promise<MemberDetail> {
  const { db } = deps;
  const [author, account] = await Promise.all([repo.authorOf(db, memberId), repo.accountOf(db, memberId)]);
  if (!author && !account) throw new NotFoundError('No such member');
  const [breakdown, referredBy, referred, appeals, history] = await Promise.all([
    author
      ? breakdownOf(deps, {
          authorId: memberId,
          weekly: false,
          viewerBrowserHash: null,
          includeDisqualified: true,
        })
      : null,
    account ? repo.referralsOf(db, account.id, 'referee') : [],
    account ? repo.referralsOf(db, account.id, 'referrer') : [],
    appealsOf(db, memberId),
    repo.historyOf(db, account ? [memberId, String(account.id)] : [memberId], MEMBER_HISTORY_LIMIT),
  ]);
  const first = referredBy[0];
  return {
    memberId,
    profile: author
      ? {
          handle: author.handle,
          displayName: author.display_name,
          avatarUrl: author.avatar_url,
          firstTrackedAt: author.first_tracked_at.toISOString(),
        }
      : null,
    account: account
      ? {
          handle: account.handle,
          linkedAt: account.linked_at.toISOString(),
          followers: account.followers,
          networkCreatedAt: account.network_created_at?.toISOString() ?? null,
          browsers: Number(account.browsers ?? 0),
        }
      : null,
    breakdown: breakdown?.data ?? null,
    referrals: { referredBy: first ? referralView(first) : null, referred: referred.map(referralView) },
    disqualification: {
      disqualified: Boolean(author?.disqualified),
      reason: author?.disqualified_reason ?? null,
      by: author?.disqualified_by ?? null,
      at: author?.disqualified_at?.toISOString() ?? null,
    },
    appeals,
    history: history.map((h) => ({
      at: h.at.toISOString(),
      actor: h.actor,
      action: h.action,
      details: h.details,
    })),
  };
}
