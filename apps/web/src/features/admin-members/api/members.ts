import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  adminMemberResponseSchema,
  adminMembersResponseSchema,
  adminQualificationResponseSchema,
  memberFairnessResponseSchema,
  type SetQualificationRequest,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

export const adminMemberKeys = {
  all: ['admin', 'members'] as const,
  search: (q: string) => ['admin', 'members', 'search', q] as const,
  detail: (memberId: string) => ['admin', 'members', 'detail', memberId] as const,
  flags: (memberId: string) => ['admin', 'members', 'flags', memberId] as const,
};

/** How many hits one page of the search holds (the server's default, said here so Load more can count). */
export const SEARCH_PAGE_SIZE = 20;

/** `GET /api/admin/members?q=`: authors and linked members whose handle or name contains `q`, a page at a time. */
export const memberSearchQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: adminMemberKeys.search(q),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      adminRequest('/api/admin/members', {
        query: { q, limit: String(SEARCH_PAGE_SIZE), offset: pageParam ? String(pageParam) : undefined },
        schema: adminMembersResponseSchema,
        signal,
      }),
    getNextPageParam: (page, pages) => {
      const seen = pages.reduce((n, p) => n + p.data.members.length, 0);
      return page.data.members.length === SEARCH_PAGE_SIZE && seen < page.data.total ? seen : undefined;
    },
    enabled: q.length > 0,
  });

/** `GET /api/admin/members/:memberId`: the member's page (network user ids may hold `:`, so it is encoded). */
export const memberDetailQueryOptions = (memberId: string) =>
  queryOptions({
    queryKey: adminMemberKeys.detail(memberId),
    queryFn: ({ signal }) =>
      adminRequest(`/api/admin/members/${encodeURIComponent(memberId)}`, {
        schema: adminMemberResponseSchema,
        signal,
      }),
  });

/** `GET /api/admin/fairness/members/:memberId`: the fairness signals raised about this member (advice only). */
export const memberFlagsQueryOptions = (memberId: string) =>
  queryOptions({
    queryKey: adminMemberKeys.flags(memberId),
    queryFn: ({ signal }) =>
      adminRequest(`/api/admin/fairness/members/${encodeURIComponent(memberId)}`, {
        schema: memberFairnessResponseSchema,
        signal,
      }),
  });

/** `POST /api/admin/members/qualification`: disqualify or requalify, with the reason the member reads. */
export const setQualification = (body: SetQualificationRequest) =>
  adminRequest('/api/admin/members/qualification', {
    method: 'POST',
    body,
    schema: adminQualificationResponseSchema,
  });

/** A member page's address inside the console. */
export const memberPath = (memberId: string) => `/admin/members/${encodeURIComponent(memberId)}`;
