import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from './fetch-error';
import { Http } from './http';

describe('the HTTP client', () => {
  let server: http.Server;
  let origin: string;
  const hits = new Map<string, number[]>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = req.url ?? '/';
      const times = hits.get(path) ?? [];
      times.push(Date.now());
      hits.set(path, times);
      if (path === '/busy' && times.length === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        return res.end('{"error":"RateLimitExceeded"}');
      }
      if (path === '/spent') {
        const reset = Math.ceil(Date.now() / 1000) + 1;
        res.writeHead(200, { 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) });
        return res.end('ok');
      }
      if (path === '/big') return res.end('x'.repeat(5_000));
      if (path === '/chunked') {
        res.write('x'.repeat(800));
        return res.end('x'.repeat(800));
      }
      if (path === '/missing') {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end('{"error":"RecordNotFound","message":"Could not locate record"}');
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('waits out a 429 for its Retry-After, then tries again', async () => {
    const client = new Http({ retries: 2 });
    const answer = await client.get(`${origin}/busy`, { accept: '*/*', maxBytes: 100 });
    expect(Buffer.from(answer.body).toString()).toBe('ok');
    const [first, second] = hits.get('/busy')!;
    expect(second! - first!).toBeGreaterThanOrEqual(950);
  });

  it('leaves a host that announced ratelimit-remaining: 0 alone until its reset', async () => {
    const client = new Http();
    await client.get(`${origin}/spent`, { accept: '*/*', maxBytes: 100 });
    const host = new URL(origin).host;
    expect(client.gates.pausedFor(host)).toBeGreaterThan(0);
    await client.get(`${origin}/other`, { accept: '*/*', maxBytes: 100 });
    expect(hits.get('/other')![0]!).toBeGreaterThanOrEqual(hits.get('/spent')![0]! + 1);
    expect(client.gates.pausedFor(host)).toBe(0);
  });

  it('refuses an answer over its cap, and names an XRPC error', async () => {
    const client = new Http();
    await expect(client.get(`${origin}/big`, { accept: '*/*', maxBytes: 1_000 })).rejects.toThrow(
      `${origin}/big answered 5000 bytes, over the cap of 1000`,
    );
    await expect(client.get(`${origin}/chunked`, { accept: '*/*', maxBytes: 1_000 })).rejects.toThrow(
      `${origin}/chunked answered more than the cap of 1000 bytes`,
    );
    const error = await client
      .get(`${origin}/missing`, { accept: '*/*', maxBytes: 1_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toBe(
      `${origin}/missing answered HTTP 400 (RecordNotFound: Could not locate record)`,
    );
  });
});
