import { queryOptions, useQuery } from '@tanstack/react-query';
import { programmeResponseSchema } from '@manaboard/contract';
import { apiRequest } from './api-client';

/** Query keys of the programme rules. */
export const programmeKeys = {
  all: ['programme'] as const,
};

/** `GET /api/programme`: the rules the engine pays by (weights, multiplier, limits, rewards, settle window). */
export const programmeQueryOptions = () =>
  queryOptions({
    queryKey: programmeKeys.all,
    queryFn: ({ signal }) =>
      apiRequest('/api/programme', { schema: programmeResponseSchema, signal, anonymous: true }),
    select: (response) => response.data,
  });

export function useProgrammeRules() {
  return useQuery(programmeQueryOptions());
}
