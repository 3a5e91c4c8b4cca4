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

/** Drives one URL with autocannon (10 connections by default) for `seconds`: the one wrapper every bench uses. */
export async function load(
  url: string,
  seconds: number,
  connections = 10,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
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
