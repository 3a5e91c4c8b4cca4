import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { recordsResponseSchema, type RecordLineKind, type RecordsResponse } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';

/** Records per page: the server's default page. */
export const RECORDS_PAGE = 50;

/** Which line's records: a post's (by its id), the referrals, or the interactions with one official post. */
export type RecordsTarget = { authorId: string; line: RecordLineKind; post?: string };

/** `GET /api/mana/{authorId}/records?line=&post=&page=&limit=` → one page of a line's records, newest first. */
export async function getRecords(
  target: RecordsTarget,
  page: number,
  signal?: AbortSignal,
): Promise<RecordsResponse['data']> {
  const { data } = await apiRequest(`/api/mana/${encodeURIComponent(target.authorId)}/records`, {
    schema: recordsResponseSchema,
    query: {
      line: target.line,
      post: target.post,
      page: String(page),
      limit: String(RECORDS_PAGE),
    },
    ...(signal ? { signal } : {}),
  });
  return data;
}

export const recordsQueryOptions = (target: RecordsTarget) =>
  infiniteQueryOptions({
    queryKey: ['breakdown', 'records', target.authorId, target.line, target.post ?? null] as const,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => getRecords(target, pageParam, signal),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    // Records arrive with the stream: opening a line again asks again.
    staleTime: 0,
  });

/** A line's records, page after page, read only once the member opens the line. */
export function useRecords(target: RecordsTarget, enabled: boolean) {
  return useInfiniteQuery({ ...recordsQueryOptions(target), enabled });
}
