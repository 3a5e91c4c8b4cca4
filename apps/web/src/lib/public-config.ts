import { queryOptions } from '@tanstack/react-query';
import { publicConfigResponseSchema } from '@manaboard/contract';
import { apiRequest } from './api-client';

/** Query keys of the deployment's public configuration. */
export const publicConfigKeys = {
  all: ['public-config'] as const,
};

/** `GET /api/public/config`: which network this deployment runs on, and whether it is simulated. */
export const publicConfigQueryOptions = () =>
  queryOptions({
    queryKey: publicConfigKeys.all,
    queryFn: ({ signal }) =>
      apiRequest('/api/public/config', { schema: publicConfigResponseSchema, signal, anonymous: true }),
    // Fixed for the life of the server process.
    staleTime: Infinity,
  });
