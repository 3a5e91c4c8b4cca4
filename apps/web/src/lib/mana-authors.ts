import { queryOptions, useQuery } from '@tanstack/react-query';
import { manaResponseSchema, normaliseHandle, type ManaAuthor, type ManaResponse } from '@manaboard/contract';
import { OWN_STATS_SEARCH_LIMIT } from '../config/constants';
import { apiRequest } from './api-client';
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

/**
 * A member's own row (SPEC §7): `GET /api/mana?search={handle without @}&limit=10`, the first author. The
 * server lists an exact handle first; a first author with another handle means the member has no row yet (or
 * no longer: a disqualified member's row goes at once, so this read is revalidated rather than taken from the
 * browser's HTTP cache, where a public board answer may stay for its max-age).
 */
export async function getAuthorStats(
  handle: string,
  weekly: boolean,
  signal?: AbortSignal,
): Promise<ManaAuthor | null> {
  const bare = normaliseHandle(handle);
  const page = await getAuthors(
    { search: bare, weekly, limit: OWN_STATS_SEARCH_LIMIT, offset: 0 },
    signal,
    true,
  );
  const first = page.authors[0];
  return first && first.authorName.toLowerCase() === bare.toLowerCase() ? first : null;
}

export const authorStatsQueryOptions = (handle: string, weekly: boolean) =>
  queryOptions({
    queryKey: leaderboardKeys.author(handle, weekly),
    queryFn: ({ signal }) => getAuthorStats(handle, weekly, signal),
  });

/** A member's row in a period, or null when they have none; off until `enabled`. */
export function useAuthorStats(handle: string | null, weekly: boolean, enabled = true) {
  return useQuery({ ...authorStatsQueryOptions(handle ?? '', weekly), enabled: enabled && Boolean(handle) });
}
