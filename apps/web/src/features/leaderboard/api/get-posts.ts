import { queryOptions, useQuery } from '@tanstack/react-query';
import { postsResponseSchema, type TrackedPost } from '@manaboard/contract';
import { LEADERBOARD_PAGE_SIZE } from '../../../config/constants';
import { apiRequest } from '../../../lib/api-client';
import { filterPosts } from '../lib/filter-posts';
import { leaderboardKeys, type BoardFilter } from '../../../lib/leaderboard-keys';

/** `GET /api/posts` (SPEC §7) with the same query as the ranks; the answer filtered and cut per SPEC §5. */
export async function getPosts(filter: BoardFilter, signal?: AbortSignal): Promise<TrackedPost[]> {
  const { data } = await apiRequest('/api/posts', {
    schema: postsResponseSchema,
    query: {
      limit: LEADERBOARD_PAGE_SIZE,
      search: filter.search || undefined,
      weekly: filter.weekly ? true : undefined,
    },
    ...(signal ? { signal } : {}),
  });
  return filterPosts(data, filter.search);
}

export const postsQueryOptions = (filter: BoardFilter) =>
  queryOptions({
    queryKey: leaderboardKeys.posts(filter),
    queryFn: ({ signal }) => getPosts(filter, signal),
  });

/** The tracked posts of a period and search. */
export function usePosts(filter: BoardFilter) {
  return useQuery(postsQueryOptions(filter));
}
