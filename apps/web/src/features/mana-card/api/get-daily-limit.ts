import { queryOptions, useQuery } from '@tanstack/react-query';
import { dailyLimitResponseSchema, dailyLimitUserResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { leaderboardKeys } from '../../../lib/leaderboard-keys';

/** `GET /api/daily-post-limit` → `config.dailyLimit`. */
export async function getDailyLimit(signal?: AbortSignal): Promise<number> {
  const body = await apiRequest('/api/daily-post-limit', {
    schema: dailyLimitResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return body.config.dailyLimit;
}

/** `GET /api/daily-post-limit/user/{authorId}` → `user.currentCount`. */
export async function getDailyCount(authorId: string, signal?: AbortSignal): Promise<number> {
  const body = await apiRequest(`/api/daily-post-limit/user/${encodeURIComponent(authorId)}`, {
    schema: dailyLimitUserResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return body.user.currentCount;
}

export const dailyLimitQueryOptions = () =>
  queryOptions({ queryKey: leaderboardKeys.dailyLimit(), queryFn: ({ signal }) => getDailyLimit(signal) });

export const dailyCountQueryOptions = (authorId: string) =>
  queryOptions({
    queryKey: leaderboardKeys.dailyCount(authorId),
    queryFn: ({ signal }) => getDailyCount(authorId, signal),
  });

/**
 * Daily posts used / limit of an author (SPEC §2, §8): 0/0 when either call fails, and while they load. An
 * author with no row yet has posted nothing tracked today: 0 of the limit.
 */
export function useDailyPosts(authorId: string | null, enabled: boolean): { used: number; limit: number } {
  const limit = useQuery({ ...dailyLimitQueryOptions(), enabled });
  const used = useQuery({ ...dailyCountQueryOptions(authorId ?? ''), enabled: enabled && Boolean(authorId) });
  if (limit.isError || used.isError || limit.data === undefined) return { used: 0, limit: 0 };
  if (!authorId) return { used: 0, limit: limit.data };
  if (used.data === undefined) return { used: 0, limit: 0 };
  return { used: used.data, limit: limit.data };
}
