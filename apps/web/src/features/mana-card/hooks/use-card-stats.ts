import { useQuery } from '@tanstack/react-query';
import { useAuthorStats } from '../../../lib/mana-authors';
import { useDailyPosts } from '../api/get-daily-limit';
import { referralStatsQueryOptions } from '../api/get-referral-stats';

/** What the linked card's stats show (SPEC §2): all-time figures of the member's own leaderboard row. */
export type CardStats = {
  /** The member's leaderboard row (null: no row yet, shown as rank #0 and zeros). */
  authorId: string | null;
  rank: number;
  likes: number;
  retweets: number;
  totalPosts: number;
  replies: number;
  totalMana: number;
  refereeCount: number;
  dailyUsed: number;
  dailyLimit: number;
  loading: boolean;
};

/**
 * The card's stats from `/api/mana?search={handle}&limit=10`, `/referrals/stats`, `/api/daily-post-limit` and
 * `/api/daily-post-limit/user/{authorId}` (SPEC §7), asked for once the stats are first shown.
 */
export function useCardStats(handle: string, enabled: boolean): CardStats {
  const author = useAuthorStats(handle, false, enabled);
  const referrals = useQuery({ ...referralStatsQueryOptions(handle), enabled });
  const row = author.data ?? null;
  const daily = useDailyPosts(row?.authorId ?? null, enabled && author.isSuccess);
  return {
    authorId: row?.authorId ?? null,
    rank: row?.rank ?? 0,
    likes: row?.likes ?? 0,
    retweets: row?.retweets ?? 0,
    totalPosts: row?.totalPosts ?? 0,
    replies: row?.replies ?? 0,
    totalMana: row?.totalMana ?? 0,
    refereeCount: referrals.data?.refereeCount ?? 0,
    dailyUsed: daily.used,
    dailyLimit: daily.limit,
    loading: author.isPending,
  };
}
