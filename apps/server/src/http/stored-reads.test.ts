import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createMetrics } from '../composition/app';
import { loadConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import type { LeaderboardCache } from '../modules/leaderboard/leaderboard-cache';
import type { Metrics } from '../modules/metrics/metrics';
import { head, rawExchange } from '../test/raw-http';
import { systemClock } from '../lib/clock';
import { openTestDatabase } from '../test/test-database';
import { FULL_COLLECTIONS, v8ShapeTools } from '../test/v8-shapes';

const ORIGIN = 'https://community.example';
const BOARD = '/api/mana?limit=20&weekly=true';

/** One exchange over a real socket: what Fastify's inject would not show (the server in front of the router). */
type Exchange = { status: number; headers: Record<string, string>; body: string };

/** Requests sent so far. */
let sent = 0;

async function exchange(port: number, path: string, init: RequestInit = {}): Promise<Exchange> {
  sent += 1;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
  const headers = Object.fromEntries(response.headers);
  // Only Node's own Date (and the keep-alive bookkeeping) may differ between two answers of the same bytes.
  delete headers.date;
  return { status: response.status, headers, body: await response.text() };
}

/**
 * Repeated public reads answered before the router (stored-reads.ts), on the real server over sockets: the second
 * identical request gets the same status, headers and bytes as the first without passing Fastify, and is still
 * counted in the request histogram; anything its bytes depend on (the cache's answer, the Origin, the encoding, the
 * method) or that Fastify must see (a revalidation, a closing server) goes to Fastify.
 */
describe('stored reads, answered before the router', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let port: number;
  let cache: LeaderboardCache | undefined;
  let metrics: Metrics;
  const answered = () => app.storedReads?.answered ?? -1;
  /** How far the server's clock is ahead of the wall clock. */
  let shiftMs = 0;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    const config = loadConfig({
      LOG_LEVEL: 'info',
      LOG_SAMPLE_RATE: '0',
      SEED_DEMO: 'false',
      CORS_ORIGINS: ORIGIN,
    });
    metrics = createMetrics(config, database.db);
    app = await buildApp({
      config,
      database,
      metrics,
      clock: { now: () => Date.now() + shiftMs, sleep: systemClock.sleep },
      logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
      onLeaderboardCache: (made) => (cache = made),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** Fastify's own answer to `path`: a revalidation that names no tag always goes to Fastify (a full 200). */
  const fastifyAnswer = async (
    path: string,
    init: { method?: string; headers?: Record<string, string> } = {},
  ) => {
    const before = answered();
    const answer = await exchange(port, path, {
      ...init,
      headers: { ...init.headers, 'if-none-match': '"no-such-tag"' },
    });
    expect(answered()).toBe(before);
    return answer;
  };
  /**
   * The same request twice in a row until the second is answered from the memo (at most 5 pairs), and that answer:
   * the board's cache asks the database whether the totals changed at most once a second, and a request that finds
   * that check due goes to Fastify (which remembers anew), so on a slow machine one pair may straddle it.
   */
  const memoAnswer = async (path: string, init: RequestInit = {}) => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await exchange(port, path, init);
      const before = answered();
      const answer = await exchange(port, path, init);
      if (answered() === before + 1) return answer;
    }
    throw new Error(`${path} was never answered from the memo`);
  };
  const boardCount = async () => {
    const { body } = await metrics.exposition();
    const line =
      /^manaboard_http_request_duration_seconds_count\{route="\/api\/mana",method="GET",status="200"\} (\d+)$/m;
    return Number(line.exec(body)?.[1] ?? 0);
  };

  it('answers the same request again with the same status, headers and bytes, and counts it', async () => {
    const counted = await boardCount();
    const sentBefore = sent;
    const viaFastify = await fastifyAnswer(BOARD);
    expect(viaFastify.status).toBe(200);
    const fromMemo = await memoAnswer(BOARD);
    expect(fromMemo).toEqual(viaFastify);
    // Every request counted under the route's pattern, whether Fastify or the memo answered it.
    expect((await boardCount()) - counted).toBe(sent - sentBefore);
  });

  it('goes to Fastify once the cache no longer holds that answer, then remembers the new one', async () => {
    await memoAnswer(BOARD);
    const before = answered();
    cache?.invalidate();
    const fresh = await exchange(port, BOARD);
    expect(fresh.status).toBe(200);
    expect(answered()).toBe(before);
    expect(await memoAnswer(BOARD)).toEqual(fresh);
  });

  it('keeps each Origin its own answer (CORS headers only for an allowed one)', async () => {
    const allowed = await memoAnswer(BOARD, { headers: { origin: ORIGIN } });
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    const plain = await memoAnswer(BOARD);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    const other = await memoAnswer(BOARD, { headers: { origin: 'https://elsewhere.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toContain('Origin');
  });

  it('answers HEAD with the headers and no body, and leaves a revalidation to Fastify (304)', async () => {
    const get = await fastifyAnswer(BOARD);
    const viaFastify = await fastifyAnswer(BOARD, { method: 'HEAD' });
    const head = await memoAnswer(BOARD, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head).toEqual(viaFastify);
    expect(head.headers.etag).toBe(get.headers.etag);
    const before = answered();
    const revalidated = await exchange(port, BOARD, { headers: { 'if-none-match': get.headers.etag ?? '' } });
    expect(revalidated.status).toBe(304);
    expect(answered()).toBe(before);
  });

  it('answers a weekly board from the memo only within its week', async () => {
    const periodOf = (answer: Exchange) =>
      (JSON.parse(answer.body) as { data: { period: string } }).data.period;
    const thisWeek = periodOf(await memoAnswer(BOARD));
    shiftMs += 7 * 24 * 3600_000;
    const before = answered();
    const nextWeek = await exchange(port, BOARD);
    expect(answered()).toBe(before);
    expect(Date.parse(periodOf(nextWeek)) - Date.parse(thisWeek)).toBe(7 * 24 * 3600_000);
    expect(periodOf(await memoAnswer(BOARD))).toBe(periodOf(nextWeek));
  });

  it('answers the announcements, the daily limit and /healthz from the memo too', async () => {
    for (const path of ['/api/public/announcements', '/api/daily-post-limit', '/healthz']) {
      const viaFastify = await fastifyAnswer(path);
      expect(viaFastify.status).toBe(200);
      expect(await memoAnswer(path)).toEqual(viaFastify);
    }
  });

  it('never answers a query Fastify refused (400), nor a route without a stored answer', async () => {
    const before = answered();
    for (let i = 0; i < 2; i += 1) {
      expect((await exchange(port, '/api/mana?limit=nope')).status).toBe(400);
      expect((await exchange(port, '/readyz')).status).toBeGreaterThanOrEqual(200);
    }
    expect(answered()).toBe(before);
  });

  it('answers pipelined requests from the memo in order, then nothing for the malformed bytes after them', async () => {
    // Remembered for these requests' key (no Accept-Encoding, no Origin): Fastify answers the first.
    await rawExchange(port, [head('GET', '/healthz'), { waitForResponses: 1 }], { listenMs: 0 });
    const before = answered();
    // The first is written to the connection at once; the second waits behind it, as any pipelined answer does.
    const piped = head('GET', '/healthz') + head('GET', '/healthz') + 'NOT HTTP\r\n\r\n';
    const exchanged = await rawExchange(port, [piped]);
    expect(answered()).toBe(before + 2);
    expect(exchanged.statusLines).toBe(2);
    expect(exchanged.responses.map((r) => [r.status, r.body])).toEqual([
      [200, '{"status":"ok"}'],
      [200, '{"status":"ok"}'],
    ]);
    expect(exchanged.closedAfterMs).not.toBeNull();
    // Bytes that fail the parser after an answer from the memo: no answer of their own, the connection closed.
    const after = await rawExchange(port, [
      head('GET', '/healthz'),
      { waitForResponses: 1 },
      'NOT HTTP\r\n\r\n',
    ]);
    expect(answered()).toBe(before + 3);
    expect(after.statusLines).toBe(1);
    expect(after.closedAfterMs).not.toBeNull();
  });

  it('keeps the last exchange answered here and the last routed to Fastify through full collections, so the next have their shapes', async () => {
    const { haveSameShape, gc } = v8ShapeTools();
    const shapes = app.storedReads?.shapes;
    expect(shapes).toBeDefined();
    await memoAnswer('/healthz');
    /**
     * One exchange answered here and one routed to Fastify, each on its own connection that the server closes
     * after it (so no socket or parser of ours holds them), and the four objects held for them, only weakly.
     */
    const twoExchanges = async () => {
      const before = answered();
      await rawExchange(port, [head('GET', '/healthz', 'Connection: close')]);
      expect(answered()).toBe(before + 1);
      const routed = await rawExchange(port, [head('GET', '/readyz', 'Connection: close')]);
      expect(routed.responses[0]?.status).toBeGreaterThanOrEqual(200);
      expect(answered()).toBe(before + 1);
      const held = shapes?.held();
      return [...(held?.answered ?? []), ...(held?.routed ?? [])].map((object) => new WeakRef(object));
    };
    const first = await twoExchanges();
    expect(first).toHaveLength(4);
    for (const options of FULL_COLLECTIONS) {
      // A weak target is kept to the end of the job that read it: collect in a later one.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc(options);
    }
    const kept = first.map((held) => held.deref());
    expect(kept.every((object) => object !== undefined)).toBe(true);
    const next = (await twoExchanges()).map((held) => held.deref());
    expect(
      next.map((object, at) => object !== kept[at] && haveSameShape(kept[at] ?? {}, object ?? [])),
    ).toEqual([true, true, true, true]);
  });

  it("reads each connection's peer address as it opens, so a later read changes no socket's shape", async () => {
    const { haveSameShape } = v8ShapeTools();
    // The memo holds the answer without compression, as the raw requests below ask (fetch asks for br).
    for (let tries = 0; tries < 5; tries++) {
      const before = answered();
      await rawExchange(port, [head('GET', '/healthz', 'Connection: close')]);
      if (answered() > before) break;
    }
    /** A connection kept open after one request answered here, and the server's socket of it. */
    const connection = async () => {
      const before = answered();
      const client = net.connect(port, '127.0.0.1');
      await once(client, 'connect');
      client.write(head('GET', '/healthz'));
      const [chunk] = (await once(client, 'data')) as [Buffer];
      expect(chunk.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
      expect(answered()).toBe(before + 1);
      const server = app.storedReads?.shapes.held().answered?.[0].socket;
      if (!server) throw new Error('no exchange held');
      return { client, server };
    };
    const first = await connection();
    const second = await connection();
    try {
      expect(first.server).not.toBe(second.server);
      // What a sampled log line, a rate limit or Fastify's request.ip reads, on one socket only.
      expect(first.server.remoteAddress).toBe('127.0.0.1');
      expect(haveSameShape(first.server, second.server)).toBe(true);
    } finally {
      first.client.destroy();
      second.client.destroy();
    }
  });

  it('leaves every request to Fastify once the server is closing', async () => {
    await memoAnswer(BOARD);
    const before = answered();
    app.storedReads?.close();
    expect((await exchange(port, BOARD)).status).toBe(200);
    expect(answered()).toBe(before);
  });
});

describe('stored reads, off', () => {
  it.each([
    ['a line per request (LOG_LEVEL=debug)', { LOG_LEVEL: 'debug' }],
    ['a rate limit on the public reads', { RATE_LIMIT_PUBLIC_READ_PER_MINUTE: '1000' }],
  ])('with %s every request passes Fastify', async (_name, env) => {
    const database = await openTestDatabase('pglite');
    const config = loadConfig({ LOG_LEVEL: 'info', SEED_DEMO: 'false', ...env });
    const app = await buildApp({
      config,
      database,
      logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;
      expect(app.storedReads?.enabled).toBe(false);
      const first = await exchange(port, BOARD);
      expect(await exchange(port, BOARD)).toEqual(first);
      expect(app.storedReads?.answered).toBe(0);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('stored reads, sampled to the request log', () => {
  it('answers a sampled request from the memo and logs its line at info, secrets censored', async () => {
    const database = await openTestDatabase('pglite');
    const logs: string[] = [];
    const config = loadConfig({ LOG_LEVEL: 'info', LOG_SAMPLE_RATE: '1', SEED_DEMO: 'false' });
    const app = await buildApp({
      config,
      database,
      logStream: new Writable({
        write: (chunk: Buffer, _encoding, callback) => {
          logs.push(chunk.toString('utf8'));
          callback();
        },
      }),
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;
      const secrets = { authorization: 'Bearer sampled-secret', cookie: 'session=sampled-secret' };
      await exchange(port, BOARD, { headers: secrets });
      const before = app.storedReads?.answered ?? -1;
      logs.length = 0;
      await exchange(port, BOARD, { headers: secrets });
      // Every request is sampled, and the memo still answered this one.
      expect(app.storedReads?.answered).toBe(before + 1);
      const sampled = logs
        .map((text) => JSON.parse(text) as { level: number; msg: string; req?: { url?: string } })
        .filter((line) => line.msg === 'request completed (sample)');
      expect(sampled.map((line) => [line.level, line.req?.url])).toEqual([[30, BOARD]]);
      expect(logs.join('\n')).toContain('[redacted]');
      expect(logs.join('\n')).not.toContain('sampled-secret');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
