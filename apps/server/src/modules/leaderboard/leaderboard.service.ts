import type { Kysely } from 'kysely';
import type {
  DailyLimitResponse,
  DailyLimitUserResponse,
  LeaderboardQuery,
  ManaResponse,
  PostsResponse,
} from '@manaboard/contract';
import type { Database } from '../../db/schema';
import { isoWeekStart, nextUtcMidnight, weekKey } from '../mana/scoring';
import { activeRules } from '../programme/programme.service';
import * as repo from './leaderboard.repository';

const WEEK_MS = 7 * 86_400_000;

/** What the leaderboard reads with: the database, time, and the network's post URLs. */
export type LeaderboardDeps = {
  db: Kysely<Database>;
  now: () => number;
  postUrl: (handle: string, postId: string) => string;
};

/** `GET /api/mana`: a page of the precomputed totals of the period, rank order, or a search keeping ranks. */
export async function manaPage(deps: LeaderboardDeps, query: LeaderboardQuery): Promise<ManaResponse> {
  const period = query.weekly ? weekKey(new Date(deps.now())) : 'all';
  const { rows, total, updatedAt } = await repo.pageOfTotals(deps.db, {
    period,
    search: query.search,
    limit: query.limit,
    offset: query.offset,
  });
  return {
    success: true,
    data: {
      authors: rows.map((r) => ({
        authorId: r.author_id,
        authorName: r.handle,
        displayName: r.display_name,
        profileImageUrl: r.avatar_url,
        rank: r.rank,
        totalPosts: r.posts,
        totalMana: r.mana,
        likes: r.likes,
        retweets: r.reposts,
        replies: r.replies,
        quotes: r.quotes,
        linked: r.linked,
      })),
      total,
      period,
      updatedAt: updatedAt?.toISOString() ?? null,
    },
  };
}

/** `GET /api/posts`: tracked posts of the period by Mana, newest first on ties; search on content or author. */
export async function postsPage(deps: LeaderboardDeps, query: LeaderboardQuery): Promise<PostsResponse> {
  const since = query.weekly ? isoWeekStart(new Date(deps.now())) : null;
  const rows = await repo.pageOfPosts(deps.db, {
    since,
    until: since ? new Date(since.getTime() + WEEK_MS) : null,
    search: query.search,
    limit: query.limit,
    offset: query.offset,
  });
  return {
    success: true,
    data: rows.map((r) => ({
      id: r.id,
      url: deps.postUrl(r.handle, r.id),
      content: r.text,
      authorName: r.handle,
      authorId: r.author_id,
      profileImageUrl: r.avatar_url,
      createdAt: r.created_at.toISOString(),
      likes: r.likes,
      retweets: r.reposts,
      replies: r.replies,
      quotes: r.quotes,
      mana: r.mana,
      final: r.final,
      overDailyLimit: r.over_limit,
    })),
  };
}

/** `GET /api/daily-post-limit`. */
export async function dailyLimit(deps: LeaderboardDeps): Promise<DailyLimitResponse> {
  const { rules } = await activeRules(deps.db);
  return { success: true, config: { dailyLimit: rules.dailyLimit } };
}

/** `GET /api/daily-post-limit/user/:authorId`: tracked posts of today (UTC); unknown authors count 0. */
export async function dailyLimitOf(deps: LeaderboardDeps, authorId: string): Promise<DailyLimitUserResponse> {
  const { rules } = await activeRules(deps.db);
  const now = new Date(deps.now());
  const resetsAt = nextUtcMidnight(now);
  const dayStart = new Date(resetsAt.getTime() - 86_400_000);
  const currentCount = await repo.countPostsBetween(deps.db, authorId, dayStart, resetsAt);
  return {
    success: true,
    user: { authorId, currentCount, dailyLimit: rules.dailyLimit, resetsAt: resetsAt.toISOString() },
  };
}
