/** The leaderboard's view of a period and a search (the search already normalised). */
export type BoardFilter = { weekly: boolean; search: string };

/**
 * Query keys of the board's reads, shared by the leaderboard and the card (TkDodo's key factories): everything
 * under `all`, so a refresh can drop the lot; pages and posts keyed by period and search; a member's own stats
 * by handle (lower-cased).
 */
export const leaderboardKeys = {
  all: ['leaderboard'] as const,
  ranks: (filter: BoardFilter) =>
    [...leaderboardKeys.all, 'ranks', filter.weekly ? 'weekly' : 'all', filter.search] as const,
  posts: (filter: BoardFilter) =>
    [...leaderboardKeys.all, 'posts', filter.weekly ? 'weekly' : 'all', filter.search] as const,
  author: (handle: string, weekly: boolean) =>
    [...leaderboardKeys.all, 'author', handle.toLowerCase(), weekly ? 'weekly' : 'all'] as const,
  dailyLimit: () => [...leaderboardKeys.all, 'daily-limit'] as const,
  dailyCount: (authorId: string) => [...leaderboardKeys.all, 'daily-limit', 'user', authorId] as const,
};
