import { queryOptions, useQuery } from '@tanstack/react-query';
import { breakdownResponseSchema, type BreakdownResponse } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';

/** Query keys of the breakdown feature: per author and period (the answer also depends on the viewer). */
export const breakdownKeys = {
  all: ['breakdown'] as const,
  of: (authorId: string, weekly: boolean) =>
    [...breakdownKeys.all, authorId, weekly ? 'weekly' : 'all'] as const,
};

/** `GET /api/mana/{authorId}/breakdown?weekly=` → the ledger lines behind the author's figure. */
export async function getBreakdown(
  authorId: string,
  weekly: boolean,
  signal?: AbortSignal,
): Promise<BreakdownResponse['data']> {
  const { data } = await apiRequest(`/api/mana/${encodeURIComponent(authorId)}/breakdown`, {
    schema: breakdownResponseSchema,
    query: { weekly: weekly ? true : undefined },
    ...(signal ? { signal } : {}),
  });
  return data;
}

export const breakdownQueryOptions = (authorId: string, weekly: boolean) =>
  queryOptions({
    queryKey: breakdownKeys.of(authorId, weekly),
    queryFn: ({ signal }) => getBreakdown(authorId, weekly, signal),
    // The lines move with the worker; opening the dialog again asks again.
    staleTime: 0,
  });

export function useBreakdown(authorId: string, weekly: boolean, enabled: boolean) {
  return useQuery({ ...breakdownQueryOptions(authorId, weekly), enabled });
}
