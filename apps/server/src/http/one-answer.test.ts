import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { head, rawExchange, type RawExchange } from '../test/raw-http';
import { startRawServer, type RawServer } from '../test/raw-server';

/**
 * One answer per request, on raw sockets against the real server (RFC 9112 §9.6): body bytes a client sends
 * without framing them (no Content-Length, no chunked encoding, as Node's http.request does for a DELETE with a
 * body) are not a second request to answer, pipelined requests are answered in order and none after a "close",
 * and a client that half-closes after its request still gets its answer. Every exchange counts the status lines
 * that came back, parses the bytes strictly and checks whether the server closed the connection.
 */
describe('one answer per request (raw sockets)', () => {
  let server: RawServer;

  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  const unframed = '{"note":"a body without Content-Length"}';
  const bodiless = (method: string) => () => method === 'HEAD';
  const slowAnswer = '{"success":true,"slow":true}';
  const answeredOnce = (exchange: RawExchange) => {
    expect(exchange.statusLines).toBe(1);
    expect(exchange.responses).toHaveLength(1);
    const status = exchange.responses[0]?.status ?? 0;
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    return exchange.responses[0];
  };

  it.each(methods)(
    '%s, unframed body bytes, "Connection: close": one answer, then closed',
    async (method) => {
      const exchange = await rawExchange(
        server.port,
        [head(method, '/api/mana', 'Connection: close') + unframed],
        {
          bodiless: bodiless(method),
        },
      );
      expect(answeredOnce(exchange)?.headers.connection).toBe('close');
      expect(exchange.closedAfterMs).not.toBeNull();
    },
  );

  it.each(methods)(
    '%s, unframed body bytes, kept alive: one answer saying "close", then closed',
    async (method) => {
      // The leftover bytes fail as a next request while the answer is being made: it says "close", and nothing
      // answers them.
      const exchange = await rawExchange(server.port, [head(method, '/api/probe/slow') + unframed], {
        bodiless: bodiless(method),
      });
      const answer = answeredOnce(exchange);
      expect(answer?.headers.connection).toBe('close');
      if (method !== 'HEAD') expect(answer?.body).toBe(slowAnswer);
      expect(exchange.closedAfterMs).not.toBeNull();
    },
  );

  it.each(methods)('%s, unframed body bytes after its answer: nothing more, then closed', async (method) => {
    const steps = [head(method, '/api/mana'), { waitForResponses: 1 }, unframed];
    const exchange = await rawExchange(server.port, steps, { bodiless: bodiless(method) });
    answeredOnce(exchange);
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  it('answers pipelined requests in order and keeps the connection open', async () => {
    const requests = head('GET', '/healthz') + head('GET', '/api/probe/slow') + head('GET', '/api/mana');
    const exchange = await rawExchange(server.port, [requests, { waitForResponses: 3 }], { listenMs: 300 });
    expect(exchange.statusLines).toBe(3);
    expect(exchange.responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(exchange.responses.map((r) => r.body.slice(0, 16))).toEqual([
      '{"status":"ok"}',
      slowAnswer.slice(0, 16),
      '{"success":true,',
    ]);
    expect(exchange.closedAfterMs).toBeNull();
  });

  it('answers nothing pipelined after a request that said "Connection: close"', async () => {
    const requests =
      head('GET', '/api/probe/slow', 'Connection: close') +
      head('GET', '/api/mana') +
      head('DELETE', '/api/mana');
    const exchange = await rawExchange(server.port, [requests]);
    expect(answeredOnce(exchange)?.headers.connection).toBe('close');
    expect(exchange.responses[0]?.body).toBe(slowAnswer);
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  it('answers every pipelined request up to the one that said "Connection: close", then closes', async () => {
    const requests =
      head('GET', '/healthz') + head('GET', '/api/probe/slow', 'Connection: close') + head('GET', '/healthz');
    const exchange = await rawExchange(server.port, [requests]);
    expect(exchange.statusLines).toBe(2);
    expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(exchange.responses[1]?.headers.connection).toBe('close');
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  it('answers the pipelined requests before a malformed one in order, the last saying "close", then closes', async () => {
    const requests = head('GET', '/api/mana') + head('GET', '/api/probe/slow') + 'NOT HTTP\r\n\r\n';
    const exchange = await rawExchange(server.port, [requests]);
    expect(exchange.statusLines).toBe(2);
    expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(exchange.responses[1]?.headers.connection).toBe('close');
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  it('answers a client that half-closes its side after a full request, then closes', async () => {
    const exchange = await rawExchange(server.port, [head('GET', '/api/probe/slow'), 'end']);
    expect(answeredOnce(exchange)?.status).toBe(200);
    expect(exchange.responses[0]?.body).toBe(slowAnswer);
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  it('logs no error and no stack trace for any of it', () => {
    expect(server.logLines().filter((line) => line.level >= 50)).toEqual([]);
    expect(server.logLines().some((line) => line.msg === 'client error: closing the connection')).toBe(true);
  });
});
