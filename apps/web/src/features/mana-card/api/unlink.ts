import { useMutation, useQueryClient } from '@tanstack/react-query';
import { emptyBodySchema, unlinkResponseSchema } from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { clearBrowserId } from '../../../lib/browser-id';
import { clearCsrfToken } from '../../../lib/csrf-token';

/** `POST /me/unlink {}`: the server unbinds this browser (and revokes the X token when none is left). */
export async function unlinkAccount(): Promise<void> {
  await apiRequest('/me/unlink', {
    method: 'POST',
    body: emptyBodySchema.parse({}),
    schema: unlinkResponseSchema,
  });
}

/**
 * Unlink (SPEC §4): the server call, then this browser forgets its id and token, `onUnlinked` clears what the
 * caller owns (the pending referrer), and the page reloads as a new, unlinked browser. Reads still in flight are
 * cancelled first: the member's referral link (a POST) answered after the unlink would be a 403 NOT_CONNECTED.
 */
export function useUnlink(onUnlinked: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await queryClient.cancelQueries();
      await unlinkAccount();
    },
    onSuccess: () => {
      clearBrowserId();
      clearCsrfToken();
      onUnlinked();
      window.location.reload();
    },
  });
}
