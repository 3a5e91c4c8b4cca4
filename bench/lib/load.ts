import autocannon from 'autocannon';

export type LoadResult = {
  requestsPerSecond: number;
  /** Requests answered in the whole run. */
  requests: number;
  p50: number;
  p99: number;
  /** The slowest answer, ms. */
  max: number;
  non2xx: number;
  errors: number;
};

/**
 * autocannon (9.x) appends every answer's body to a string (`req.body += chunk`: its pipelinedRequestsQueue, and its
 * issues #362 and #485), that is, it decodes each body as UTF-8 in the load generator, only to hand it to callbacks
 * no bench here uses. On the 2 cores the generator shares with the server, that cost is taken from the server: a
 * Brotli answer (binary, so off V8's ASCII fast path) of 1.6 KB was read at 0.70–0.85× the rate of the same number
 * of ASCII bytes, from the same plain node:http server (docs/benchmarks.md, 29 November). A browser never does
 * this. So each connection keeps no body: bytes and timings are counted as before, and nothing else changes.
 * Throws if autocannon's internals are not what this relies on (an upgrade must not silently decode again).
 */
export function keepNoBodies(client: autocannon.Client): void {
  const queue = (client as unknown as { pipelinedRequests?: { addBody?: unknown } }).pipelinedRequests;
  if (!queue || typeof queue.addBody !== 'function') {
    throw new Error("autocannon's client has no pipelinedRequests.addBody: bench/lib/load.ts needs a look");
  }
  queue.addBody = () => {};
}

/**
 * BENCH_LOAD_BODIES=decode: the generator decodes every body as autocannon does by itself (the figures before 29
 * November 2026), for a side-by-side of the two.
 */
const decodeBodies = process.env.BENCH_LOAD_BODIES === 'decode';

/** Drives one URL with autocannon (10 connections by default) for `seconds`: the one wrapper every bench uses. */
export async function load(
  url: string,
  seconds: number,
  connections = 10,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    ...(decodeBodies ? {} : { setupClient: keepNoBodies }),
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
