import type * as z from 'zod/mini';
import { communityFailureSchema } from '@manaboard/contract';
import { adminSessionResponseSchema } from '@manaboard/contract/admin';
import { CSRF_HEADER, REQUEST_TIMEOUT_MS } from '../config/constants';
import {
  ApiError,
  NETWORK_ERROR_MESSAGE,
  REQUEST_TIMEOUT_MESSAGE,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './api-error';

/**
 * The operator console's HTTP client. The console's credential is its session cookie (HttpOnly, SameSite=Strict,
 * sent by the browser): this client never sends the member pages' browser id. Writes carry the CSRF token the
 * session answer gave (bound to the session); a write refused for its token is retried once with a fresh one.
 */
let csrfToken: string | null = null;

export function setAdminCsrfToken(token: string | null): void {
  csrfToken = token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type AdminRequest<S extends z.ZodMiniType> = {
  method?: Method;
  query?: Record<string, string | undefined>;
  body?: unknown;
  schema: S;
  signal?: AbortSignal;
};

export function adminUrl(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function exchange(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fetch(url, { ...init, credentials: 'same-origin', signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new ApiError(REQUEST_TIMEOUT_MESSAGE, 408);
    if (signal?.aborted) throw signal.reason ?? error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The server's `{success:false, error}` text as an ApiError (401: no session; 403: not an admin, or CSRF). */
export async function failureOf(response: Response): Promise<ApiError> {
  const json: unknown = await response.json().catch(() => null);
  const failure = communityFailureSchema.safeParse(json);
  const message = failure.success ? failure.data.error : `HTTP ${response.status}: ${response.statusText}`;
  return new ApiError(message, response.status, { data: json, statusText: response.statusText });
}

async function once<S extends z.ZodMiniType>(path: string, options: AdminRequest<S>): Promise<z.infer<S>> {
  const method = options.method ?? 'GET';
  const write = method !== 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (write) headers['Content-Type'] = 'application/json';
  if (write && csrfToken) headers[CSRF_HEADER] = csrfToken;
  const init: RequestInit = {
    method,
    headers,
    ...(write ? { body: JSON.stringify(options.body ?? {}) } : {}),
  };
  const response = await exchange(adminUrl(path, options.query), init, options.signal);
  if (!response.ok) throw await failureOf(response);
  const result = options.schema.safeParse(await response.json().catch(() => undefined));
  if (!result.success) throw new ApiError(UNEXPECTED_RESPONSE_MESSAGE, response.status);
  return result.data;
}

/** `GET /api/admin/session`: who is signed in; keeps the CSRF token for the writes that follow. */
export async function fetchAdminSession(signal?: AbortSignal) {
  const session = await once('/api/admin/session', {
    schema: adminSessionResponseSchema,
    ...(signal ? { signal } : {}),
  });
  setAdminCsrfToken(session.csrfToken);
  return session;
}

/** One console call; a write refused with 403 is retried once after fetching the session's token again. */
export async function adminRequest<S extends z.ZodMiniType>(
  path: string,
  options: AdminRequest<S>,
): Promise<z.infer<S>> {
  try {
    return await once(path, options);
  } catch (error) {
    const write = (options.method ?? 'GET') !== 'GET';
    if (!(
      write &&
      error instanceof ApiError &&
      error.status === 403 &&
      /security token/i.test(error.message)
    )) {
      throw error;
    }
    await fetchAdminSession(options.signal);
    return once(path, options);
  }
}

/** True when a console call failed because the session is gone (expired, signed out elsewhere). */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
