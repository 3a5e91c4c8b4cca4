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
export type StartLinkingInput = {
  referrerSlug: string | null;
  /** The account the member named, on networks whose sign-in starts from a handle. */
  handle?: string;
};

export async function startLinking(queryClient: QueryClient, input: StartLinkingInput): Promise<string> {
  const { referrerSlug, handle } = input;
  const config = await queryClient.fetchQuery(publicConfigQueryOptions());
  const { data } = await apiRequest(NETWORKS[config.data.socialNetwork].linkStartPath, {
    method: 'POST',
    body: {
      redirectAfter: authReturnUrl(),
      ...(referrerSlug ? { referrerSlug } : {}),
      ...(handle !== undefined ? { handle } : {}),
    },
    schema: authStartResponseSchema,
  });
  return data.authorizeUrl;
}

/**
 * Starts linking and sends the browser to the network; a failure is logged (SPEC §8), and a handle form shows it.
 */
export function useStartLinking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartLinkingInput) => startLinking(queryClient, input),
    onSuccess: (authorizeUrl) => window.location.assign(authorizeUrl),
    onError: (error) => console.warn('Could not start account linking:', error),
  });
}
