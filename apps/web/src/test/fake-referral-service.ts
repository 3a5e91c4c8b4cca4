import { vi } from 'vitest';

/** A stubbed answer: a Response, or a function of the request making one. */
export type FakeRoute =
  Response | ((request: { init: RequestInit; url: URL }) => Response | Promise<Response>);

/** A JSON answer (with any extra headers, e.g. a download's Content-Disposition). */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The console's answer to `GET /api/admin/session` for the demo admin, signed in (CSRF token `admin-token`). */
export const adminSessionAnswer = () =>
  json({
    success: true,
    admin: { handle: 'ManaboardHQ', networkUserId: '42' },
    csrfToken: 'admin-token',
    expiresAt: '2026-11-24T23:00:00.000Z',
    idleTimeoutSeconds: 1800,
  });

/** The referral service's success envelope. */
export const ok = (data: unknown) => json({ ok: true, data, error: null });

/** The referral service's failure envelope with a catalogue code. */
export const fail = (status: number, code: string, message = code) =>
  json({ ok: false, data: null, error: { message, code } }, status);

export const networkDown = () => Promise.reject(new TypeError('Failed to fetch'));

/**
 * Stubs `fetch` as the referral service at the HTTP boundary: routes are `"METHOD /path"` keys; `/csrf-token`
 * and the public config answer by default; anything else is a 404 envelope.
 */
export function fakeReferralService(routes: Record<string, FakeRoute | FakeRoute[]>) {
  const queues = new Map(
    Object.entries(routes).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]),
  );
  let tokens = 0;
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    let route = queues.get(key);
    // A list answers in order, then repeats its last entry.
    if (Array.isArray(route)) route = route.length > 1 ? route.shift() : route[0];
    if (route === undefined) {
      if (key === 'GET /csrf-token') return ok({ csrfToken: `token-${++tokens}` });
      if (key === 'GET /api/public/config')
        return json({ success: true, data: { socialNetwork: 'x', simulated: true } });
      return fail(404, 'NOT_FOUND');
    }
    if (route instanceof Response) return route.clone();
    return route({ init, url });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The requests made to one route, with their headers and parsed bodies. */
export function requestsTo(fetchMock: ReturnType<typeof fakeReferralService>, key: string) {
  return fetchMock.mock.calls
    .filter(
      ([input, init]) => `${init?.method ?? 'GET'} ${new URL(input, 'http://localhost').pathname}` === key,
    )
    .map(([, init]) => ({
      headers: new Headers(init?.headers),
      /** The request's HTTP cache mode (`default` when the caller set none). */
      cache: init?.cache ?? 'default',
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}
