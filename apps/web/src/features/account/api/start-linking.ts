import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { authStartResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { publicConfigQueryOptions } from '../../../lib/public-config';
import { NETWORKS } from '../../../networks/networks';

/** Where the network sends the browser back to: this origin's auth-return screen (SPEC §3). */
export const authReturnUrl = () => `${window.location.origin}/auth/callback`;

/**
 * `POST {the network's start path}` (on X, SPEC's `/auth/twitter/start`) → the provider's authorize URL,
 * carrying the pending referrer when there is one. The network comes from the public config (cached).
 */
export async function startLinking(queryClient: QueryClient, referrerSlug: string | null): Promise<string> {
  const config = await queryClient.fetchQuery(publicConfigQueryOptions());
  const { data } = await apiRequest(NETWORKS[config.data.socialNetwork].linkStartPath, {
    method: 'POST',
    body: { redirectAfter: authReturnUrl(), ...(referrerSlug ? { referrerSlug } : {}) },
    schema: authStartResponseSchema,
  });
  return data.authorizeUrl;
}

/** Starts linking and sends the browser to the network; a failure is only logged (SPEC §8). */
export function useStartLinking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (referrerSlug: string | null) => startLinking(queryClient, referrerSlug),
    onSuccess: (authorizeUrl) => window.location.assign(authorizeUrl),
    onError: (error) => console.warn('Could not start account linking:', error),
  });
}
