import { queryOptions } from '@tanstack/react-query';
import {
  adminOkResponseSchema,
  adminSignInStartResponseSchema,
  type AdminSignInError,
} from '@manaboard/contract/admin';
import { adminRequest, failureOf, fetchAdminSession, setAdminCsrfToken } from './admin-api';
import { ApiError } from './api-error';

export const adminSessionKeys = { session: ['admin', 'session'] as const };

/** `GET /api/admin/session`; a 401 means "show the sign-in screen", not an error to retry. */
export const adminSessionQueryOptions = () =>
  queryOptions({
    queryKey: adminSessionKeys.session,
    queryFn: ({ signal }) => fetchAdminSession(signal),
    retry: false,
    staleTime: 60_000,
  });

/** `POST /auth/admin/start` → the network's sign-in page. No session yet, so no CSRF token either. */
export async function startAdminSignIn(handle?: string): Promise<string> {
  const response = await fetch('/auth/admin/start', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(handle ? { handle } : {}),
  }).catch(() => {
    throw new ApiError('Network error', 0);
  });
  if (!response.ok) throw await failureOf(response);
  const parsed = adminSignInStartResponseSchema.safeParse(await response.json());
  if (!parsed.success) throw new ApiError('Unexpected response from server', response.status);
  return parsed.data.authorizeUrl;
}

export async function signOutAdmin(): Promise<void> {
  await adminRequest('/api/admin/sign-out', { method: 'POST', schema: adminOkResponseSchema });
  setAdminCsrfToken(null);
}

/** What the console says when a sign-in came back without a session (`/admin?error=…`). */
export const signInErrorText: Record<AdminSignInError, string> = {
  not_admin: 'This account is not an admin of this programme. Ask the operator to add it to ADMIN_ACCOUNTS.',
  invalid_state: 'That sign-in link was already used or started in another browser. Please sign in again.',
  state_expired: 'The sign-in took too long. Please sign in again.',
  access_denied: 'The sign-in was cancelled.',
  exchange_failed: 'The network did not confirm the sign-in. Please try again.',
};

export function signInErrorOf(search: string): string | null {
  const code = new URLSearchParams(search).get('error');
  return code && code in signInErrorText ? signInErrorText[code as AdminSignInError] : null;
}
