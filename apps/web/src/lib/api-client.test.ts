import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiRequest, setRequestHeadersProvider } from './api-client';
import { ApiError } from './api-error';
import { storeCsrfToken } from './csrf-token';

const schema = z.object({ success: z.literal(true), value: z.number() });

function respond(body: string, init: ResponseInit = {}) {
  const fetchMock = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(body, { headers: { 'content-type': 'application/json' }, ...init }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** A fetch that never answers and rejects like the browser does when its signal aborts. */
function hang() {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          const abort = () => reject(init.signal?.reason ?? new DOMException('aborted', 'AbortError'));
          if (init.signal?.aborted) abort();
          init.signal?.addEventListener('abort', abort);
        }),
    ),
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

// Writes carry a CSRF token; a valid stored one keeps these tests to the single exchange they are about
// (fetching and refreshing the token is covered in api-client-identity.test.ts).
beforeEach(() => storeCsrfToken('stored-token'));
afterEach(() => {
  setRequestHeadersProvider(() => ({}));
  localStorage.clear();
});

describe('apiRequest', () => {
  it('sends JSON with the query string and parses the answer with the schema', async () => {
    const fetchMock = respond(JSON.stringify({ success: true, value: 7 }));
    await expect(
      apiRequest('/api/x', { query: { page: 1, limit: 50, skip: undefined }, schema }),
    ).resolves.toEqual({ success: true, value: 7 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/x?page=1&limit=50');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('adds the headers of the registered provider and serialises the body', async () => {
    const fetchMock = respond(JSON.stringify({ success: true, value: 1 }));
    setRequestHeadersProvider(async (method) => ({ 'X-Method-Seen': method }));
    await apiRequest('/referrals/apply', { method: 'POST', body: { referrerHandle: 'alice' }, schema });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    const headers = new Headers(init?.headers);
    expect(headers.get('X-Method-Seen')).toBe('POST');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"referrerHandle":"alice"}');
  });

  it('times out after 10 s with "Request timeout" and status 408', async () => {
    vi.useFakeTimers();
    hang();
    let settled = false;
    const pending = failure(apiRequest('/api/slow', { schema })).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toMatchObject({ message: 'Request timeout', status: 408 });
    expect(error.isTimeout).toBe(true);
  });

  it('times out a body that never finishes arriving', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const stalled = new ReadableStream({
          start(controller) {
            init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          },
        });
        return new Response(stalled, { status: 200 });
      }),
    );
    const pending = failure(apiRequest('/api/slow-body', { schema }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await pending).toMatchObject({ message: 'Request timeout', status: 408 });
  });

  it("leaves the caller's own abort an abort, not an ApiError", async () => {
    hang();
    const controller = new AbortController();
    const pending = apiRequest('/api/x', { schema, signal: controller.signal });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    controller.abort(new DOMException('cancelled', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', message: 'cancelled' });
    await expect(pending).rejects.not.toBeInstanceOf(ApiError);

    // Aborted before it starts: no request at all.
    vi.mocked(fetch).mockClear();
    await expect(apiRequest('/api/x', { schema, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reports a network failure as "Network error" with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await failure(apiRequest('/api/x', { schema }))).toMatchObject({
      message: 'Network error',
      status: 0,
    });
  });

  it('reports an unparsable body as "Invalid JSON response"', async () => {
    respond('<html>oops</html>', { status: 200 });
    expect(await failure(apiRequest('/api/x', { schema }))).toMatchObject({
      message: 'Invalid JSON response',
      status: 200,
    });
  });

  it('reports an answer that does not match the contract, keeping the body', async () => {
    respond(JSON.stringify({ success: true, value: 'seven' }));
    const error = await failure(apiRequest('/api/x', { schema }));
    expect(error.message).toBe('Unexpected response from server');
    expect(error.data).toEqual({ success: true, value: 'seven' });
  });

  it('reads the community dialect {success:false, error}', async () => {
    respond(JSON.stringify({ success: false, error: 'limit must be at most 100' }), {
      status: 400,
      statusText: 'Bad Request',
    });
    const error = await failure(apiRequest('/api/x', { schema }));
    expect(error).toMatchObject({ message: 'limit must be at most 100', status: 400, code: null });
    expect(error.statusText).toBe('Bad Request');
    expect(error.isBadRequest).toBe(true);
    expect(error.hasServerText).toBe(true);
  });

  it('reads the referral envelope {ok:false, error:{message, code}}', async () => {
    const body = {
      ok: false,
      data: null,
      error: { message: 'You cannot refer yourself.', code: 'SELF_REFERRAL' },
    };
    respond(JSON.stringify(body), { status: 400 });
    const error = await failure(apiRequest('/referrals/apply', { method: 'POST', body: {}, schema }));
    expect(error).toMatchObject({
      message: 'You cannot refer yourself.',
      code: 'SELF_REFERRAL',
      status: 400,
    });
    expect(error.data).toEqual(body);
  });

  it.each([
    [401, 'isUnauthorized'],
    [404, 'isNotFound'],
    [429, 'isRateLimit'],
  ] as const)('marks a %i answer with %s', async (status, getter) => {
    respond(JSON.stringify({ success: false, error: 'nope' }), { status });
    const error = await failure(apiRequest('/api/x', { schema }));
    expect(error.status).toBe(status);
    expect(error[getter]).toBe(true);
    expect(error.message).toBe('nope');
  });

  it('says "HTTP {status}: {statusText}" when a failure carries no envelope (even an HTML page)', async () => {
    respond('', { status: 502, statusText: 'Bad Gateway' });
    expect((await failure(apiRequest('/api/x', { schema }))).message).toBe('HTTP 502: Bad Gateway');
    respond('<html>proxy error</html>', { status: 503, statusText: 'Service Unavailable' });
    const error = await failure(apiRequest('/api/x', { schema }));
    expect(error).toMatchObject({ message: 'HTTP 503: Service Unavailable', status: 503, data: null });
    expect(error.hasServerText).toBe(false);
  });

  it('knows the status families', () => {
    expect(new ApiError('x', 429).isRateLimit).toBe(true);
    expect(new ApiError('x', 401).isUnauthorized).toBe(true);
    expect(new ApiError('x', 400).isBadRequest).toBe(true);
    expect(new ApiError('x', 404).isNotFound).toBe(true);
    expect(new ApiError('x', 400).isNotFound).toBe(false);
    expect(new ApiError('x', 408).isTimeout).toBe(false);
  });
});
