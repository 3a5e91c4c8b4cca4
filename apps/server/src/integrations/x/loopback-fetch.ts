import http from 'node:http';
import type { XAnswer, XFetch } from './x-http';

/** Connections kept open between calls, as `fetch` keeps them. */
const agent = new http.Agent({ keepAlive: true });

/**
 * The demo's calls to the simulated X this same process serves, over loopback, through `node:http` rather than
 * the global `fetch`. Node's `fetch` is undici, which it loads on the first call along with its HTTP parser in
 * WebAssembly: in a bare process 50 calls through it left 15 MB more resident than through `node:http` (issue 33,
 * docs/benchmarks.md), memory an idle demo then keeps for good. The call is otherwise the same: the URL, the
 * headers, the time-out (its abort rejects with an `AbortError`), and an answer read whole before it resolves, so
 * a connection lost halfway through the body fails the call. Plain `http:` only: the simulated X is on loopback.
 */
export const loopbackFetch: XFetch = (url, init) =>
  new Promise<XAnswer>((resolve, reject) => {
    if (url.protocol !== 'http:') {
      reject(new TypeError(`loopbackFetch: ${url.protocol} is not served here; only http: on loopback`));
      return;
    }
    const request = http.get(url, { agent, headers: init.headers, signal: init.signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = response.statusCode ?? 0;
        const header = (name: string) => {
          const value = response.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        };
        resolve({
          status,
          ok: status >= 200 && status < 300,
          statusText: response.statusMessage ?? '',
          headers: { get: header, has: (name) => header(name) !== null },
          text: () => Promise.resolve(body),
        });
      });
    });
    request.on('error', reject);
  });
