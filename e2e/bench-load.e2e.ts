import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepNoBodies, load } from '../bench/lib/load';

// The benches' load generator (bench/lib/load.ts): autocannon without its decoding of every body (docs/benchmarks.md,
// 29 November). If an upgrade of autocannon moved what keepNoBodies relies on, these fail rather than the benches
// measuring the generator's decoding again without a word.
describe("the benches' load generator", () => {
  // A compressed answer, as a browser gets the board: binary bytes, no longer text.
  const body = brotliCompressSync(
    JSON.stringify({ rows: Array.from({ length: 40 }, (_, i) => ({ i, name: `n${i}` })) }),
  );
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The bodies autocannon hands to a request's onResponse, over `amount` requests. */
  async function bodiesSeen(setupClient?: (client: autocannon.Client) => void) {
    const bodies: string[] = [];
    const result = await autocannon({
      url,
      connections: 2,
      amount: 20,
      requests: [{ method: 'GET', onResponse: (_status, received) => void bodies.push(received) }],
      ...(setupClient ? { setupClient } : {}),
    });
    return { bodies, result };
  }

  it('by itself, autocannon decodes every body to a string', async () => {
    const { bodies } = await bodiesSeen();
    expect(bodies).toHaveLength(20);
    for (const received of bodies) expect(received).toBe(body.toString('utf8'));
  });

  it('keepNoBodies keeps none, and still counts every answer and its bytes', async () => {
    const { bodies, result } = await bodiesSeen(keepNoBodies);
    expect(bodies).toHaveLength(20);
    for (const received of bodies) expect(received).toBe('');
    expect(result.requests.total).toBe(20);
    expect(result.non2xx).toBe(0);
    expect(result.throughput.total).toBeGreaterThan(20 * body.length);
  });

  it('keepNoBodies refuses a client that is not shaped as it expects', () => {
    expect(() => keepNoBodies({} as autocannon.Client)).toThrow(/pipelinedRequests\.addBody/);
  });

  it('load() drives the URL and reports its answers', async () => {
    const result = await load(url, 1, 2);
    expect(result.requests).toBeGreaterThan(0);
    expect(result.requestsPerSecond).toBeGreaterThan(0);
    expect(result.non2xx).toBe(0);
    expect(result.errors).toBe(0);
  });
});
