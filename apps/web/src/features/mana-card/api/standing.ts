import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  memberStandingResponseSchema,
  submitAppealResponseSchema,
  type Appeal,
  type MemberStanding,
} from '@manaboard/contract';
import { apiRequest } from '../../../lib/api-client';
import { ApiError, userMessageFor } from '../../../lib/api-error';
import { withRetry } from '../../../lib/retry';

/** Query keys of the member's standing (disqualification and appeal), per linked handle. */
export const standingKeys = {
  all: ['standing'] as const,
  of: (handle: string) => [...standingKeys.all, handle] as const,
};

/** `GET /me/standing`: disqualified or not, the operator's reason, and the member's appeal with its answer. */
export async function getStanding(signal?: AbortSignal): Promise<MemberStanding> {
  const { data } = await withRetry(
    () => apiRequest('/me/standing', { schema: memberStandingResponseSchema, ...(signal ? { signal } : {}) }),
    signal,
  );
  return data;
}

export const standingQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: standingKeys.of(handle),
    queryFn: ({ signal }) => getStanding(signal),
    retry: false,
  });

/** The linked member's standing (keyed by handle, so a relink asks again). */
export function useStanding(handle: string) {
  return useQuery(standingQueryOptions(handle));
}

/** `POST /me/appeal {text}` (CSRF added by the API client); the text is trimmed by the contract on the server. */
export async function submitAppeal(text: string): Promise<Appeal> {
  const { data } = await apiRequest('/me/appeal', {
    method: 'POST',
    body: { text },
    schema: submitAppealResponseSchema,
  });
  return data;
}

/** Sends the appeal, then reads the standing again (it now shows the appeal and no form). */
export function useSubmitAppeal(handle: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: submitAppeal,
    onSuccess: () => client.invalidateQueries({ queryKey: standingKeys.of(handle) }),
  });
}

/** What the form says when sending failed: the server's own words for a refused appeal, else the catalogue's. */
export function appealErrorMessage(error: unknown): string {
  if (error instanceof ApiError && (error.status === 400 || error.status === 409) && error.hasServerText) {
    return error.message;
  }
  return userMessageFor(error);
}
