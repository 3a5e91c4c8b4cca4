import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  adminOkResponseSchema,
  fairnessFlagsResponseSchema,
  fairnessRunResponseSchema,
  memberFairnessResponseSchema,
  type FairnessFlagKind,
  type FairnessReviewRequest,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

export const FLAGS_PAGE_SIZE = 50;

/** Query keys: every fairness answer sits under `all`, so a review or a recompute refreshes them together. */
export const fairnessKeys = {
  all: ['admin', 'fairness'] as const,
  flags: (kind: FairnessFlagKind | null) => [...fairnessKeys.all, 'flags', kind ?? 'any'] as const,
  member: (memberId: string) => [...fairnessKeys.all, 'member', memberId] as const,
};

/** `GET /api/admin/fairness/flags?kind=&limit=&offset=`, strongest first, a page at a time. */
export const fairnessFlagsQueryOptions = (kind: FairnessFlagKind | null) =>
  infiniteQueryOptions({
    queryKey: fairnessKeys.flags(kind),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      adminRequest('/api/admin/fairness/flags', {
        query: { kind: kind ?? undefined, limit: String(FLAGS_PAGE_SIZE), offset: String(pageParam) },
        schema: fairnessFlagsResponseSchema,
        signal,
      }),
    getNextPageParam: (page, pages) => {
      const seen = pages.reduce((sum, p) => sum + p.data.flags.length, 0);
      return page.data.flags.length > 0 && seen < page.data.total ? seen : undefined;
    },
  });

/** `GET /api/admin/fairness/members/:memberId`: one member's flags, by network user id. */
export const memberFairnessQueryOptions = (memberId: string) =>
  queryOptions({
    queryKey: fairnessKeys.member(memberId),
    queryFn: ({ signal }) =>
      adminRequest(`/api/admin/fairness/members/${encodeURIComponent(memberId)}`, {
        schema: memberFairnessResponseSchema,
        signal,
      }),
  });

/** `POST /api/admin/fairness/review`: the operator's conclusion about one flag (audited). */
export const reviewFairnessFlag = (body: FairnessReviewRequest) =>
  adminRequest('/api/admin/fairness/review', { method: 'POST', body, schema: adminOkResponseSchema });

/** `POST /api/admin/fairness/recompute`: runs the detector now and says what it found. */
export const recomputeFairness = () =>
  adminRequest('/api/admin/fairness/recompute', { method: 'POST', schema: fairnessRunResponseSchema });
