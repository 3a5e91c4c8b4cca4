import { useMutation } from '@tanstack/react-query';
import { authStartResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';

/** Where X sends the browser back to: this origin's auth-return screen (SPEC §3). */
export const authReturnUrl = () => `${window.location.origin}/auth/callback`;

/** `POST /auth/twitter/start` → the provider's authorize URL, carrying the pending referrer when there is one. */
export async function startLinking(referrerSlug: string | null): Promise<string> {
  const { data } = await apiRequest('/auth/twitter/start', {
    method: 'POST',
    body: { redirectAfter: authReturnUrl(), ...(referrerSlug ? { referrerSlug } : {}) },
    schema: authStartResponseSchema,
  });
  return data.authorizeUrl;
}

/** Starts linking and sends the browser to X; a failure is only logged (SPEC §8). */
export function useStartLinking() {
  return useMutation({
    mutationFn: startLinking,
    onSuccess: (authorizeUrl) => window.location.assign(authorizeUrl),
    onError: (error) => console.warn('Could not start account linking:', error),
  });
}
