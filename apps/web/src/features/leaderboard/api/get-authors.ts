import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { LEADERBOARD_PAGE_SIZE } from '../../../config/constants';
import { getAuthors } from '../../../lib/mana-authors';
import { leaderboardKeys, type BoardFilter } from '../../../lib/leaderboard-keys';

export const authorsQueryOptions = (filter: BoardFilter) =>
  infiniteQueryOptions({
    queryKey: leaderboardKeys.ranks(filter),
    queryFn: ({ pageParam, signal }) =>
      getAuthors({ ...filter, limit: LEADERBOARD_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.authors.length, 0);
      return last.authors.length === LEADERBOARD_PAGE_SIZE && loaded < last.total ? loaded : undefined;
    },
  });

/** The ranks of a period and search, page by page. */
export function useAuthors(filter: BoardFilter) {
  return useInfiniteQuery(authorsQueryOptions(filter));
}
