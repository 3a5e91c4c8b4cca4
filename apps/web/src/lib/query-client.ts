import { QueryClient } from '@tanstack/react-query';
import { QUERY_STALE_TIME_MS } from '../config/constants';

/** SPEC §7: data is fresh for 5 minutes and not refetched on window focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: QUERY_STALE_TIME_MS, refetchOnWindowFocus: false, retry: 1 },
    },
  });
}
