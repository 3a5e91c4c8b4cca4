import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackFetch } from './loopback-fetch';

describe('loopbackFetch', () => {
  let server: http.Server;
  let origin: string;
  const seen: http.IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      seen.push(request.headers);
      if (request.url === '/ok') {
        response.setHeader('x-rate-limit-remaining', '41');
        response.setHeader('set-cookie', ['a=1', 'b=2']);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: 'café ✓' }));
      } else if (request.url === '/missing') {
        response.writeHead(404, 'Not Found').end('{"title":"Not Found Error"}');
      } else if (request.url === '/cut') {
        response.writeHead(200, { 'content-length': '1000' });
        response.write('{"data":');
        setTimeout(() => response.destroy(), 20);
      }
      // /silent: never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (path: string, signal = AbortSignal.timeout(5_000)) =>
    loopbackFetch(new URL(path, origin), {
      headers: { authorization: 'Bearer t', accept: 'application/json' },
      signal,
    });

  it('sends the headers and gives the status, the headers and the body', async () => {
    const answer = await call('/ok');
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer t', accept: 'application/json' });
    expect(answer).toMatchObject({ status: 200, ok: true, statusText: 'OK' });
    expect(answer.headers.get('X-Rate-Limit-Remaining')).toBe('41');
    expect(answer.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(answer.headers.has('x-rate-limit-reset')).toBe(false);
    expect(answer.headers.get('x-rate-limit-reset')).toBeNull();
    expect(JSON.parse(await answer.text())).toEqual({ data: 'café ✓' });
  });

  it('answers an error status as fetch does, not as a failure', async () => {
    const answer = await call('/missing');
    expect(answer).toMatchObject({ status: 404, ok: false, statusText: 'Not Found' });
    expect(await answer.text()).toBe('{"title":"Not Found Error"}');
  });

  it('fails a call whose connection is lost halfway through the body', async () => {
    await expect(call('/cut')).rejects.toThrow();
  });

  it('fails with an AbortError when the time-out passes', async () => {
    await expect(call('/silent', AbortSignal.timeout(100))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('serves only plain http', async () => {
    await expect(
      loopbackFetch(new URL('https://127.0.0.1/'), { headers: {}, signal: AbortSignal.timeout(1_000) }),
    ).rejects.toThrow(TypeError);
  });
});
