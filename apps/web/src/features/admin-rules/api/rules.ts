import { queryOptions } from '@tanstack/react-query';
import {
  adminRulesResponseSchema,
  rulesDiffResponseSchema,
  rulesPreviewResponseSchema,
  rulesSaveResponseSchema,
  rulesVersionsResponseSchema,
  type RulesDraftRequest,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

/** Query keys of the console's rules screens. */
export const adminRulesKeys = {
  all: ['admin', 'rules'] as const,
  current: () => [...adminRulesKeys.all, 'current'] as const,
  versions: () => [...adminRulesKeys.all, 'versions'] as const,
  diff: (version: number) => [...adminRulesKeys.all, 'diff', version] as const,
  preview: (body: string) => [...adminRulesKeys.all, 'preview', body] as const,
};

/** `GET /api/admin/rules`: the rules in force and their version (the form starts from them). */
export const adminRulesQueryOptions = () =>
  queryOptions({
    queryKey: adminRulesKeys.current(),
    queryFn: ({ signal }) => adminRequest('/api/admin/rules', { schema: adminRulesResponseSchema, signal }),
    select: (response) => response.data,
  });

/** `GET /api/admin/rules/versions`: the newest versions first, with the one in force. */
export const ruleVersionsQueryOptions = () =>
  queryOptions({
    queryKey: adminRulesKeys.versions(),
    queryFn: ({ signal }) =>
      adminRequest('/api/admin/rules/versions', {
        query: { limit: '50' },
        schema: rulesVersionsResponseSchema,
        signal,
      }),
    select: (response) => response.data,
  });

/** `GET /api/admin/rules/versions/:version/diff`: a version against the one before it. */
export const ruleDiffQueryOptions = (version: number) =>
  queryOptions({
    queryKey: adminRulesKeys.diff(version),
    queryFn: ({ signal }) =>
      adminRequest(`/api/admin/rules/versions/${version}/diff`, { schema: rulesDiffResponseSchema, signal }),
    select: (response) => response.data,
  });

/**
 * `POST /api/admin/rules/preview` of a draft (stores nothing), keyed by the draft's JSON; the last answer stays on
 * screen while the next one loads, so the preview does not flicker as the operator types.
 */
export const rulesPreviewQueryOptions = (body: string) =>
  queryOptions({
    queryKey: adminRulesKeys.preview(body),
    queryFn: ({ signal }) =>
      adminRequest('/api/admin/rules/preview', {
        method: 'POST',
        body: JSON.parse(body) as RulesDraftRequest,
        schema: rulesPreviewResponseSchema,
        signal,
      }),
    select: (response) => response.data,
    // keepPreviousData, written out: TanStack's helper would otherwise join the main page's first load.
    placeholderData: <T>(previous: T) => previous,
    staleTime: 30_000,
  });

/** `POST /api/admin/rules`: stores the draft as the next version (or says nothing changed). */
export const saveRules = (body: RulesDraftRequest) =>
  adminRequest('/api/admin/rules', { method: 'POST', body, schema: rulesSaveResponseSchema });
