import { queryOptions } from '@tanstack/react-query';
import { announcementsResponseSchema, type AnnouncementsResponse } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { ANNOUNCEMENTS_PAGE, ANNOUNCEMENTS_PAGE_SIZE, REQUEST_TIMEOUT_MS } from '../../../config/constants';

/** Query keys of the announcements feature. */
export const announcementKeys = {
  all: ['announcements'] as const,
  list: (page: number, limit: number) => [...announcementKeys.all, 'list', { page, limit }] as const,
};

/** `GET /api/public/announcements?page=1&limit=50` (SPEC §7), aborted after 10 s. */
export function getAnnouncements(signal?: AbortSignal): Promise<AnnouncementsResponse> {
  return apiRequest('/api/public/announcements', {
    query: { page: ANNOUNCEMENTS_PAGE, limit: ANNOUNCEMENTS_PAGE_SIZE },
    schema: announcementsResponseSchema,
    timeoutMs: REQUEST_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
  });
}

export const announcementsQueryOptions = () =>
  queryOptions({
    queryKey: announcementKeys.list(ANNOUNCEMENTS_PAGE, ANNOUNCEMENTS_PAGE_SIZE),
    queryFn: ({ signal }) => getAnnouncements(signal),
    // SPEC: a failure offers Retry (a page reload); retrying quietly first would only delay that.
    retry: false,
  });
