import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { manaResponseSchema, type ManaResponse } from '@manaboard/contract';
import { LEADERBOARD_PAGE_SIZE } from '../../../config/constants';
import { apiRequest } from '../../../lib/api-client';
import { leaderboardKeys, type BoardFilter } from './leaderboard-keys';

type AuthorsPage = ManaResponse['data'];

/**
 * `GET /api/mana` (SPEC §7): `limit`, optional `search`, `weekly=true` on the weekly view, and `offset` for
 * "Show more" — ranks stay global because the server ranks the whole period.
 */
export async function getAuthors(
  params: BoardFilter & { limit: number; offset: number },
  signal?: AbortSignal,
  revalidate = false,
): Promise<AuthorsPage> {
  const { data } = await apiRequest('/api/mana', {
    schema: manaResponseSchema,
    anonymous: true,
    query: {
      limit: params.limit,
      offset: params.offset || undefined,
      search: params.search || undefined,
      weekly: params.weekly ? true : undefined,
    },
    ...(signal ? { signal } : {}),
    ...(revalidate ? { revalidate } : {}),
  });
  return data;
}

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
