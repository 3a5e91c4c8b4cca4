import type { BreakdownLine, BreakdownResponse } from '@manaboard/contract';
import { NotFoundError } from '../../lib/errors';
import { findAccountByBrowser } from '../linking/accounts.repository';
import { referralLines } from '../mana/member-facts.repository';
import { isoWeekStart, weekKey } from '../mana/scoring';
import { activeRules } from '../programme/programme.service';
import * as repo from './breakdown.repository';
import type { LeaderboardDeps } from './leaderboard.service';

const WEEK_MS = 7 * 86_400_000;

/**
 * The ledger lines behind an author's total in a period: one per tracked post (0 when over the daily limit or
 * gone), the referrals (named only to the member themself, identified by the browser hash; others get one line
 * with the count) and the interactions (credited ones count in the week they settled; pending ones show their
 * reward, void ones 0, each with its due dates). The lines sum to the leaderboard's figure once the worker's totals run has caught up.
 */
export async function breakdownOf(
  deps: LeaderboardDeps,
  input: {
    authorId: string;
    weekly: boolean;
    viewerBrowserHash: string | null;
    /** The operator console sees a disqualified author's lines too; the public never does. */
    includeDisqualified?: boolean;
  },
): Promise<BreakdownResponse> {
  const author = await repo.findAuthor(deps.db, input.authorId);
  if (!author || (author.disqualified && !input.includeDisqualified))
    throw new NotFoundError('No such author on the leaderboard');
  const now = new Date(deps.now());
  const since = input.weekly ? isoWeekStart(now) : null;
  const until = since ? new Date(since.getTime() + WEEK_MS) : null;
  const inPeriod = (at: Date) => !since || !until || (at >= since && at < until);
  const viewer = input.viewerBrowserHash
    ? await findAccountByBrowser(deps.db, input.viewerBrowserHash)
    : undefined;
  const own = viewer?.network_user_id === author.id;

  const [posts, referrals, interactions, { rules }] = await Promise.all([
    repo.postLines(deps.db, author.id, since, until),
    referralLines(deps.db, [author.id]),
    repo.interactionHistory(deps.db, author.id),
    activeRules(deps.db),
  ]);
  const lines: BreakdownLine[] = posts.map((p) => ({
    type: 'post',
    postId: p.id,
    url: deps.postUrl(author.handle, p.id),
    createdAt: p.created_at.toISOString(),
    likes: p.likes,
    replies: p.replies,
    reposts: p.reposts,
    quotes: p.quotes,
    multiplier: p.multiplier,
    mana: p.mana,
    status: p.status,
    final: p.final,
    overDailyLimit: p.over_limit,
  }));
  const periodReferrals = referrals.filter((r) => inPeriod(r.at));
  if (own) {
    for (const r of periodReferrals) {
      lines.push({
        type: 'referral',
        refereeHandle: r.refereeHandle,
        count: 1,
        mana: r.mana,
        at: r.at.toISOString(),
      });
    }
  } else if (periodReferrals.length > 0) {
    const mana = periodReferrals.reduce((sum, r) => sum + r.mana, 0);
    lines.push({ type: 'referral', refereeHandle: null, count: periodReferrals.length, mana, at: null });
  }
  for (const i of interactions) {
    // Settled lines belong to the week they settled in; pending ones show until they settle.
    const at = i.status === 'pending' ? i.detected_at : (i.settled_at ?? i.detected_at);
    if (i.status !== 'pending' && !inPeriod(at)) continue;
    lines.push({
      type: 'interaction',
      postId: i.post_id,
      kind: i.kind,
      status: i.status,
      mana: i.status === 'credited' ? i.reward : 0,
      reward: i.reward,
      at: at.toISOString(),
      checkAfter: i.check_after.toISOString(),
      settleBy: i.settle_by.toISOString(),
    });
  }
  return {
    success: true,
    data: {
      authorId: author.id,
      authorName: author.handle,
      period: input.weekly ? weekKey(now) : 'all',
      totalMana: lines.reduce((sum, line) => sum + line.mana, 0),
      weights: rules.weights,
      lines,
    },
  };
}
