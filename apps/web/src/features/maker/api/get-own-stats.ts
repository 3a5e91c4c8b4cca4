import { queryOptions, useQuery } from '@tanstack/react-query';
import { manaResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';

/** Own-stats lookups are limited to 10 results (SPEC §9). */
const OWN_STATS_LIMIT = 10;

export const makerKeys = {
  ownStats: (handle: string) => ['maker', 'own-stats', handle] as const,
};

/** `GET /api/mana?search={handle}&limit=10`: the member's all-time rank and Mana for the shareable card. */
export const ownStatsQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: makerKeys.ownStats(handle),
    queryFn: ({ signal }) =>
      apiRequest('/api/mana', {
        query: { search: handle.replace(/^@/, ''), limit: OWN_STATS_LIMIT },
        schema: manaResponseSchema,
        signal,
      }),
    select: (response) =>
      response.data.authors.find((author) => author.authorName.toLowerCase() === handle.toLowerCase()) ??
      null,
  });

export function useOwnStats(handle: string | null) {
  return useQuery({ ...ownStatsQueryOptions(handle ?? ''), enabled: Boolean(handle) });
}
