import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createServer, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import { RequestShapes } from '../lib/request-shapes';
import { negotiateEncoding, type StoredAnswer, type WireBody } from './representations';

/**
 * Repeated public reads answered before Fastify's router (issue 33, docs/benchmarks.md "The reads in front of the
 * router"). A cached read (the board, the posts, the announcements) costs a handful of microseconds of its own, but
 * Fastify's request pipeline around it (the request and reply objects, a child logger, the route's hooks, CORS,
 * validation) cost about as much again as a bare server's whole answer. So when a route sends a stored answer
 * through `sendStored` and says how to find it again (`again`), the exact answer Fastify wrote (status, headers,
 * bytes) is remembered for that request's key: method, URL as sent, negotiated encoding and Origin, the only inputs
 * such an answer depends on. The next request with the same key is answered here from those bytes, as long as
 * `again()` still gives the same stored answer (the route's own cache lookup, synchronous: the cache's age, its
 * check of the totals and the week are the route's as ever); anything else goes to Fastify, which remembers anew.
 *
 * What Fastify's path would also have done for such a request is done here: the request histogram is observed under
 * the route's pattern, a request slower than LOG_SLOW_MS is logged at warn (never, in practice: the answer is one
 * synchronous write), and the sampled share (LOG_SAMPLE_RATE) is logged at info, the line Fastify's request log
 * writes (http/request-log.ts). (That share was once left to Fastify, whose request log then drew its own sample:
 * one answer in a million was logged, not one in a thousand.) Left to Fastify always: a request with a body, a
 * revalidation (If-None-Match: the 304), any method but GET and HEAD, a server that is closing (503). Off altogether where every request must pass Fastify: at LOG_LEVEL debug or trace
 * (a line per request), and when the public reads are rate limited (RATE_LIMIT_PUBLIC_READ_PER_MINUTE).
 */
export class StoredReads {
  /**
   * By URL as sent, then the few answers of that URL (one per method, encoding and Origin): the URL is the string
   * Node's parser made, so the map hashes it as it is, with no key string built per request.
   */
  private readonly memo = new Map<string, Memo[]>();
  private entries = 0;
  private closing = false;
  /** Requests answered from the memo since the start. */
  answered = 0;
  /** The last exchange answered here and the last routed to Fastify, kept so their shapes outlive a quiet spell. */
  readonly shapes = new RequestShapes();

  constructor(private readonly options: StoredReadsOptions) {}

  /** Whether this process answers from the memo at all. */
  get enabled(): boolean {
    return this.options.enabled;
  }

  /**
   * A stored answer Fastify just wrote for `request` (status 200): the next request with the same key is answered
   * with the same bytes while `again()` gives `answer`.
   */
  remember(
    request: RequestKeyParts,
    pattern: string,
    sent: SentAnswer,
    again: () => StoredAnswer | undefined,
  ): void {
    if (!this.options.enabled || this.closing) return;
    if (this.entries >= MAX_ENTRIES) this.forget();
    const { method, url, headers } = request;
    const encoding = encodingOf(headers);
    const origin = headers.origin ?? '';
    const observe = this.options.observer(pattern, method, 200);
    // The headers as one flat list of names and values: Node's writeHead walks it without enumerating an object.
    const head = Object.entries(sent.headers).flatMap(([name, value]) => [name, String(value)]);
    const { answer, body } = sent;
    const memo: Memo = { method, encoding, origin, again, observe, head, answer, body };
    const answers = this.memo.get(url);
    const at = answers ? indexOf(answers, method, encoding, origin) : -1;
    if (answers && at >= 0) answers[at] = memo;
    else if (answers) answers.push(memo);
    else this.memo.set(url, [memo]);
    if (at < 0) this.entries += 1;
  }

  /** Answers `request` from the memo; false when it is Fastify's to answer. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.closing) return false;
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const headers = request.headers;
    if (
      headers['if-none-match'] !== undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined
    ) {
      return false;
    }
    const url = request.url ?? '';
    const answers = this.memo.get(url);
    if (answers === undefined) return false;
    const at = indexOf(answers, method, encodingOf(headers), headers.origin ?? '');
    const memo = answers[at];
    if (memo === undefined) return false;
    let current: StoredAnswer | undefined;
    try {
      current = memo.again();
    } catch {
      current = undefined;
    }
    if (current !== memo.answer) {
      answers.splice(at, 1);
      this.entries -= 1;
      if (answers.length === 0) this.memo.delete(url);
      return false;
    }
    const started = performance.now();
    response.writeHead(200, memo.head);
    response.end(method === 'HEAD' ? undefined : memo.body, 'latin1');
    this.answered += 1;
    const ms = performance.now() - started;
    memo.observe(ms / 1000);
    // The request log's lines for an answer from here, as http/request-log.ts writes them for Fastify's: a slow
    // one at warn, else a sampled share at info (logger.ts's serialiser and censoring apply to both).
    const { slowMs, sampleRate } = this.options;
    if (ms >= slowMs) {
      this.options.log.warn(requestLine(request, method, headers, ms), 'slow request');
    } else if (sampleRate > 0 && Math.random() < sampleRate) {
      this.options.log.info(requestLine(request, method, headers, ms), 'request completed (sample)');
    }
    return true;
  }

  /** The server is closing: every request goes to Fastify (which answers 503), and nothing is remembered. */
  close(): void {
    this.closing = true;
    this.forget();
  }

  private forget(): void {
    this.memo.clear();
    this.entries = 0;
  }

  /**
   * Fastify's `serverFactory`: the HTTP server Fastify would make (the same options and timeouts: fastify's
   * lib/server.js), whose requests are offered to this memo first. The last exchange of each way is kept
   * (`shapes`, lib/request-shapes.ts).
   */
  serverFactory(): FastifyServerFactory {
    return (handler, fastifyOptions) => {
      const options = fastifyOptions as ServerFactoryOptions;
      const fastify = handler as RequestListener;
      const shapes = this.shapes;
      const listener: RequestListener = this.options.enabled
        ? (request, response) => {
            if (this.serve(request, response)) {
              shapes.answered(request, response);
            } else {
              shapes.routed(request, response);
              fastify(request, response);
            }
          }
        : (request, response) => {
            shapes.routed(request, response);
            fastify(request, response);
          };
      const server: Server = createServer(options.http ?? {}, listener);
      server.on('connection', (socket: Socket) => shapes.connected(socket));
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Stored answers remembered to be answered before the router (set by app.ts; `sendStored` remembers). */
    storedReads?: StoredReads;
  }
}

export type StoredReadsOptions = {
  enabled: boolean;
  /** LOG_SAMPLE_RATE: this share of the answers from here is logged at info, as Fastify's own are. */
  sampleRate: number;
  /** LOG_SLOW_MS. */
  slowMs: number;
  log: {
    warn: (details: object, message: string) => void;
    info: (details: object, message: string) => void;
  };
  /**
   * The request histogram's observer of one route pattern, method and status (app.ts observeRequests; taken once
   * per answer remembered, so an answer served here builds no series key).
   */
  observer: (pattern: string, method: string, status: number) => (seconds: number) => void;
};

/** What Fastify wrote: the answer it was, its headers as given to `writeHead`, and its body as written. */
export type SentAnswer = { answer: StoredAnswer; headers: Record<string, string>; body: WireBody };

/** The options Fastify hands its server factory (its own, defaults filled in), as lib/server.js reads them. */
type ServerFactoryOptions = {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

type RequestKeyParts = { method: string; url: string; headers: IncomingMessage['headers'] };

/** What a remembered answer's bytes depend on besides its URL. */
type MemoKey = { method: string; encoding: string; origin: string };

type Memo = MemoKey &
  Omit<SentAnswer, 'headers'> & {
    again: () => StoredAnswer | undefined;
    /** Observes one answer of this key's method on the histogram. */
    observe: (seconds: number) => void;
    /** `headers` as writeHead's flat list: name, value, name, value, … */
    head: string[];
  };

/** Distinct requests remembered; past it the memo starts over (clients choose URLs and Origins). */
const MAX_ENTRIES = 1_000;

/** The encoding negotiated for a request ('' for none): the answer's bytes depend on it, not on the header's text. */
function encodingOf(headers: IncomingMessage['headers']): string {
  return negotiateEncoding(headers['accept-encoding']) ?? '';
}

/**
 * Which of a URL's answers is this request's (-1: none): the inputs its bytes depend on besides the URL as sent are
 * the method, the negotiated encoding and the Origin (CORS).
 */
function indexOf(answers: readonly Memo[], method: string, encoding: string, origin: string): number {
  for (let at = 0; at < answers.length; at++) {
    const known = answers[at];
    if (known && known.method === method && known.encoding === encoding && known.origin === origin) return at;
  }
  return -1;
}

/** A request log line's details for an answer from the memo (the fields logger.ts's `req` serialiser reads). */
function requestLine(
  request: IncomingMessage,
  method: string,
  headers: IncomingMessage['headers'],
  ms: number,
): object {
  return {
    req: { method, url: request.url, headers, ip: request.socket.remoteAddress },
    res: { statusCode: 200 },
    responseTime: ms,
  };
}
