import type * as z from 'zod/mini';
import {
  communityFailureSchema,
  csrfTokenResponseSchema,
  messageFor,
  referralFailureSchema,
} from '@manaboard/contract';
import { CSRF_HEADER, REQUEST_TIMEOUT_MS, USER_ID_HEADER } from '../config/constants';
import { getBrowserId } from './browser-id';
import { clearCsrfToken, readCsrfToken, storeCsrfToken } from './csrf-token';
import {
  ApiError,
  INVALID_JSON_MESSAGE,
  NETWORK_ERROR_MESSAGE,
  REQUEST_TIMEOUT_MESSAGE,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiRequestOptions<S extends z.ZodMiniType> = {
  method?: HttpMethod;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Every answer is parsed with a contract schema; a mismatch is an ApiError, never a crash later. */
  schema: S;
  /** The caller's signal (TanStack Query's, say): aborting it rejects with the abort reason, not an ApiError. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * A public read sent exactly as index.html preloads it: no browser id, no content type (a GET has no body).
   * Browsers hand a preloaded answer only to a request like the preload (WebKit compares the headers), and such
   * a read neither needs the id nor creates one.
   */
  anonymous?: boolean;
  /**
   * Ask the server even when the browser holds a fresh copy (revalidated with its ETag, so an unchanged answer
   * is a 304): for a member's own standing, which must not lag a change by a public answer's max-age.
   */
  revalidate?: boolean;
};

type HeadersProvider = (method: HttpMethod) => Promise<Record<string, string>> | Record<string, string>;
let extraHeaders: HeadersProvider = () => ({});

/** The one place later features add headers to every call (the browser id; the CSRF token on writes). */
export function setRequestHeadersProvider(provider: HeadersProvider): void {
  extraHeaders = provider;
}

function buildUrl(path: string, query: ApiRequestOptions<z.ZodMiniType>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

type Body = { parsed: true; json: unknown } | { parsed: false };

function parseBody(text: string): Body {
  if (text.length === 0) return { parsed: true, json: null };
  try {
    return { parsed: true, json: JSON.parse(text) as unknown };
  } catch {
    return { parsed: false };
  }
}

/**
 * fetch and read the body within the 10 s time-out of SPEC §9; a time-out and a network failure become
 * ApiErrors, an abort by the caller stays an abort.
 */
async function exchange(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<{ response: Response; body: Body }> {
  outer?.throwIfAborted();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    return { response, body: parseBody(await response.text()) };
  } catch (error) {
    if (timedOut) throw new ApiError(REQUEST_TIMEOUT_MESSAGE, 408);
    if (outer?.aborted) throw outer.reason ?? error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** A non-OK answer: the server's own text in either dialect, else "HTTP {status}: {statusText}". */
function failureOf(response: Response, body: Body): ApiError {
  const { status, statusText } = response;
  const json = body.parsed ? body.json : null;
  const community = communityFailureSchema.safeParse(json);
  if (community.success) return new ApiError(community.data.error, status, { data: json, statusText });
  const referral = referralFailureSchema.safeParse(json);
  if (referral.success) {
    const { message, code } = referral.data.error;
    return new ApiError(message, status, { data: json, code, statusText });
  }
  return new ApiError(`HTTP ${status}: ${statusText}`, status, { data: json, statusText });
}

const writeMethods: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One exchange: headers (JSON, the browser id, the CSRF token on writes), the answer checked and parsed. */
async function send<S extends z.ZodMiniType>(
  path: string,
  options: ApiRequestOptions<S>,
  csrfToken: string | null,
): Promise<z.infer<S>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = options.anonymous
    ? { Accept: 'application/json' }
    : {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        [USER_ID_HEADER]: getBrowserId(),
        ...(csrfToken ? { [CSRF_HEADER]: csrfToken } : {}),
        ...(await extraHeaders(method)),
      };
  const init: RequestInit = {
    method,
    headers,
    ...(options.revalidate ? { cache: 'no-cache' as const } : {}),
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  };
  const { response, body } = await exchange(
    buildUrl(path, options.query),
    init,
    options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    options.signal,
  );
  if (!response.ok) throw failureOf(response, body);
  if (!body.parsed) {
    throw new ApiError(INVALID_JSON_MESSAGE, response.status, { statusText: response.statusText });
  }
  const result = options.schema.safeParse(body.json);
  if (!result.success) {
    throw new ApiError(UNEXPECTED_RESPONSE_MESSAGE, response.status, {
      data: body.json,
      statusText: response.statusText,
    });
  }
  return result.data;
}

// Parallel writes share one token fetch instead of each asking for its own.
let pendingToken: Promise<string> | null = null;

/**
 * The CSRF token for a write: the stored one while it is valid, else a new one from `GET /csrf-token` (kept with
 * its expiry). A failed fetch is CSRF_GENERATION_FAILED when there was no token yet, CSRF_REFRESH_FAILED when
 * a stale or rejected one was being replaced (SPEC §8).
 */
async function csrfTokenFor(reason: 'write' | 'rejected', signal?: AbortSignal): Promise<string> {
  const stored = readCsrfToken();
  if (reason === 'write' && stored.state === 'valid') return stored.token;
  const code =
    reason === 'rejected' || stored.state === 'stale' ? 'CSRF_REFRESH_FAILED' : 'CSRF_GENERATION_FAILED';
  clearCsrfToken();
  pendingToken ??= send('/csrf-token', { schema: csrfTokenResponseSchema }, null)
    .then(({ data }) => {
      storeCsrfToken(data.csrfToken);
      return data.csrfToken;
    })
    .finally(() => {
      pendingToken = null;
    });
  try {
    return await pendingToken;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const status = error instanceof ApiError ? error.status : 0;
    throw new ApiError(messageFor(code), status, {
      code,
      data: error instanceof ApiError ? error.data : null,
    });
  }
}

/**
 * The one HTTP client of the web app (SPEC §7–§8): JSON in and out, a 10 s time-out ("Request timeout", 408),
 * network failures ("Network error", 0), unparsable bodies ("Invalid JSON response"), both server error
 * dialects turned into ApiError, and every success parsed with the caller's schema. Every call carries the
 * browser id; every write the CSRF token, and a write the server answers CSRF_INVALID is retried once with a
 * freshly fetched token.
 */
export async function apiRequest<S extends z.ZodMiniType>(
  path: string,
  options: ApiRequestOptions<S>,
): Promise<z.infer<S>> {
  const write = writeMethods.has(options.method ?? 'GET');
  if (write && options.anonymous) throw new Error('apiRequest: a write cannot be anonymous');
  if (!write) return send(path, options, null);
  try {
    return await send(path, options, await csrfTokenFor('write', options.signal));
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'CSRF_INVALID') throw error;
    return send(path, options, await csrfTokenFor('rejected', options.signal));
  }
}
