import { queryOptions, useQuery } from '@tanstack/react-query';
import { brandingResponseSchema, type Branding } from '@manaboard/contract';
import { apiRequest } from './api-client';

/** Query keys of the branding (shared: every page and modal reads it). */
export const brandingKeys = {
  all: ['branding'] as const,
};

/** `GET /api/public/branding`: names, links, texts and artwork of this deployment (read at run time). */
export const brandingQueryOptions = () =>
  queryOptions({
    queryKey: brandingKeys.all,
    queryFn: ({ signal }) =>
      apiRequest('/api/public/branding', { schema: brandingResponseSchema, signal, anonymous: true }),
    select: (response) => response.data,
    // Fixed for the life of the server process.
    staleTime: Infinity,
  });

/** The deployment's branding, or undefined while it loads (callers keep their layout stable meanwhile). */
export function useBranding(): Branding | undefined {
  return useQuery(brandingQueryOptions()).data;
}
