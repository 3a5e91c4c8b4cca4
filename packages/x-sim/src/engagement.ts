import type { Engagement, SimPost } from './world-types';

/** Outside engagement still to come halves every 12 hours: most of it arrives in the first two days. */
export const GROWTH_HALF_LIFE_MS = 12 * 60 * 60 * 1000;

/** Zero engagement (a fresh post's counters). */
export const noEngagement = (): Engagement => ({ likes: 0, replies: 0, reposts: 0, quotes: 0 });

/** How much of a post's potential has arrived at `now` (0 before it exists, towards 1 as it ages). */
export function grownShare(post: SimPost, now: number): number {
  const age = now - post.createdAt;
  return age <= 0 ? 0 : 1 - 2 ** (-age / GROWTH_HALF_LIFE_MS);
}

/** X's public_metrics for a post: the world's own engagement plus outside engagement grown so far. */
export function publicMetrics(
  post: SimPost,
  now: number,
  own: { likes: number; replies: number; reposts: number; quotes: number },
) {
  const share = grownShare(post, now);
  const total = (key: keyof Engagement) =>
    own[key] + post.organic[key] + Math.floor(post.potential[key] * share);
  const likes = total('likes');
  const reposts = total('reposts');
  const replies = total('replies');
  const quotes = total('quotes');
  return {
    retweet_count: reposts,
    reply_count: replies,
    like_count: likes,
    quote_count: quotes,
    bookmark_count: Math.floor(likes / 8),
    impression_count: 40 * likes + 90 * (reposts + quotes) + 25 * replies,
  };
}
