import { queryOptions } from '@tanstack/react-query';
import {
  adminAppealResponseSchema,
  adminAppealsResponseSchema,
  type AdminAppealAnswerBody,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

export type AppealFilter = 'open' | 'all';

export const adminAppealKeys = {
  all: ['admin', 'appeals'] as const,
  list: (status: AppealFilter) => ['admin', 'appeals', status] as const,
};

/** `GET /api/admin/appeals?status=`: open (unanswered) appeals or all of them, newest first. */
export const appealsQueryOptions = (status: AppealFilter) =>
  queryOptions({
    queryKey: adminAppealKeys.list(status),
    queryFn: ({ signal }) =>
      adminRequest('/api/admin/appeals', {
        query: { status, limit: '100' },
        schema: adminAppealsResponseSchema,
        signal,
      }),
  });

/** `POST /api/admin/appeals/:appealId/answer`: the answer the member reads on their card. */
export const answerAppeal = (appealId: string, body: AdminAppealAnswerBody) =>
  adminRequest(`/api/admin/appeals/${encodeURIComponent(appealId)}/answer`, {
    method: 'POST',
    body,
    schema: adminAppealResponseSchema,
  });

/** A member page's address inside the console (the Members section owns it; only the URL is shared). */
export const memberPagePath = (memberId: string) => `/admin/members/${encodeURIComponent(memberId)}`;
