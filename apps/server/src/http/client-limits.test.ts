import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../composition/app';
import { head, rawExchange, type RawExchange, type Send } from '../test/raw-http';
import { startRawServer, type RawServer } from '../test/raw-server';
import { HEADER_LIMIT_BYTES } from './client-errors';

/**
 * Clients beyond the limits, on raw sockets against the real server: each gets exactly one clear 4xx (in the
 * community dialect, "Connection: close") and its connection closed. A slow client is cut off at the configured
 * timeouts (short here: 1 s for the headers, 2 s for the whole request) while other clients are served.
 */
describe('client limits (raw sockets)', () => {
  let server: RawServer;
  const headersTimeoutMs = 1_000;
  const requestTimeoutMs = 2_000;

  beforeAll(async () => {
    server = await startRawServer({
      HTTP_HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
      HTTP_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      RATE_LIMIT_APPLY_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const oneAnswer = (exchange: RawExchange, status: number, error?: string) => {
    expect(exchange.statusLines).toBe(1);
    expect(exchange.responses).toHaveLength(1);
    const answer = exchange.responses[0];
    expect(answer?.status).toBe(status);
    expect(answer?.headers.connection?.toLowerCase()).toBe('close');
    if (error) expect(JSON.parse(answer?.body ?? '')).toEqual({ success: false, error });
    expect(exchange.closedAfterMs).not.toBeNull();
  };
  const json = 'Content-Type: application/json';

  it('answers headers over the limit with one 431', async () => {
    const big = `X-Big: ${'y'.repeat(HEADER_LIMIT_BYTES + 1)}`;
    oneAnswer(
      await rawExchange(server.port, [head('GET', '/api/mana', big)]),
      431,
      'Request headers are too large',
    );
  });

  it('answers headers just under the limit', async () => {
    const near = `X-Near: ${'y'.repeat(HEADER_LIMIT_BYTES - 1_000)}`;
    const exchange = await rawExchange(server.port, [head('GET', '/api/mana', near, 'Connection: close')]);
    expect(exchange.responses.map((r) => r.status)).toEqual([200]);
  });

  it('answers a body over the limit with one 413, sent whole', async () => {
    const body = JSON.stringify({ referrerHandle: 'x'.repeat(BODY_LIMIT_BYTES) });
    const request = head('POST', '/referrals/apply', json, `Content-Length: ${body.length}`) + body;
    oneAnswer(await rawExchange(server.port, [request]), 413);
  });

  it('answers a chunked body over the limit with one 413', async () => {
    const chunk = 'x'.repeat(4_096);
    const chunks = Array.from({ length: 5 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const request =
      head('POST', '/referrals/apply', json, 'Transfer-Encoding: chunked') + chunks + '0\r\n\r\n';
    oneAnswer(await rawExchange(server.port, [request]), 413);
  });

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['an unknown HTTP version', 'GET /api/mana HTTP/7.0\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET /api/mana HTTP/1.1\r\nHost x\r\n\r\n'],
    [
      'a broken chunked body',
      head('POST', '/referrals/apply', json, 'Transfer-Encoding: chunked') + 'ZZ\r\n{}\r\n',
    ],
  ])('answers %s with one 400', async (_what, request) => {
    oneAnswer(await rawExchange(server.port, [request]), 400, 'Malformed request');
  });

  it('cuts off a client sending its headers a byte at a time at the headers timeout, serving others meanwhile', async () => {
    const dribble: Send[] = Array.from({ length: 60 }, () => ['a', { pauseMs: 50 }]).flat();
    const slow = rawExchange(server.port, ['GET /api/mana HTTP/1.1\r\nHost: x\r\nX-Slow: ', ...dribble], {
      listenMs: 500,
    });
    const started = Date.now();
    const served: number[] = [];
    while (Date.now() - started < headersTimeoutMs - 200) {
      const other = await rawExchange(server.port, [head('GET', '/api/mana', 'Connection: close')]);
      expect(other.responses.map((r) => r.status)).toEqual([200]);
      served.push(Date.now() - started);
    }
    const cutOff = await slow;
    oneAnswer(cutOff, 408, 'The request did not arrive in time');
    // Node checks for overdue requests every quarter of the timeout (at most every second): docs/configuration.md.
    expect(cutOff.closedAfterMs).toBeGreaterThanOrEqual(headersTimeoutMs);
    expect(cutOff.closedAfterMs).toBeLessThan(headersTimeoutMs * 1.25 + 1_000);
    expect(served.length).toBeGreaterThan(1);
    expect(Math.max(...served)).toBeLessThan(cutOff.closedAfterMs ?? 0);
  });

  it('cuts off a client sending its body a byte at a time at the request timeout', async () => {
    const dribble: Send[] = Array.from({ length: 60 }, () => ['a', { pauseMs: 50 }]).flat();
    const headers = head('POST', '/referrals/apply', json, 'Content-Length: 100');
    const cutOff = await rawExchange(server.port, [headers, ...dribble], { listenMs: 500 });
    oneAnswer(cutOff, 408, 'The request did not arrive in time');
    expect(cutOff.closedAfterMs).toBeGreaterThanOrEqual(requestTimeoutMs);
    expect(cutOff.closedAfterMs).toBeLessThan(requestTimeoutMs + headersTimeoutMs / 4 + 1_000);
  });

  it('logs no error and no stack trace for any of it', () => {
    expect(server.logLines().filter((line) => line.level >= 50)).toEqual([]);
  });
});
