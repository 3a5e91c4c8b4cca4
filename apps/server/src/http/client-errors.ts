import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { HttpConfig } from '../config/http-config';

/** Node's request-header limit (its default, set explicitly): larger headers are answered 431. */
export const HEADER_LIMIT_BYTES = 16 * 1024;

/** How long a connection we closed may linger for the client's own close before it is dropped. */
const LINGER_MS = 2_000;

type Exchange = { request: IncomingMessage; response: ServerResponse };

/** One connection as the guard sees it. */
type ConnectionState = {
  /** Requests received on it so far (each one gets its answer from its route). */
  requests: number;
  /** Exchanges whose answers have not gone out yet, in the order they came. */
  open: Set<Exchange>;
  /** Set by the first client error: the connection is closed once the answers in flight are out. */
  error: NodeJS.ErrnoException | undefined;
};

/** The one answer for a client error that arrived before any request of its connection was answered. */
function answerFor(error: NodeJS.ErrnoException): string {
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large']
      : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? [413, 'Request chunk extensions are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request did not arrive in time']
          : [400, 'Malformed request'];
  const body = JSON.stringify({ success: false, error: message });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * One answer per request (RFC 9112 §9.6): after a client error (a malformed request line, unframed body bytes
 * parsed as a next request, oversized headers, a request too slow to arrive) nothing more is read or answered on
 * that connection. Fastify's default handler wrote its 400 straight onto the socket whatever was in flight there:
 * after an answer that said "Connection: close" (a second response), or before a pipelined answer still being
 * made (which was then lost). Here the answers already owed go out first, in order, the last of them saying
 * "Connection: close"; the error itself is answered (400, 408, 413 or 431, in the community dialect) only when
 * nothing was answered or is being answered on the connection, or when it broke the very request still waiting for
 * its body; then the connection is closed.
 *
 * It also lets a client that half-closes its side after a full request (`shutdown(SHUT_WR)`) get its answer: Node's
 * server otherwise ends the connection as soon as the client's side ends (`httpAllowHalfOpen`, off by default).
 */
export class ConnectionGuard {
  private readonly connections = new WeakMap<Socket, ConnectionState>();
  private log: FastifyBaseLogger | undefined;

  /** Fastify's `clientErrorHandler` (Node's `clientError` event). */
  readonly onClientError = (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const state = this.stateOf(socket);
    // Once closing, further bytes keep failing the parser: they are dropped.
    if (state.error) return;
    state.error = error;
    this.log?.debug({ code: error.code, inFlight: state.open.size }, 'client error: closing the connection');
    const last = [...state.open].at(-1);
    if (last && !last.response.headersSent) last.response.setHeader('connection', 'close');
    this.settle(socket, state);
  };

  /** Fastify's options for the server the guard watches: this handler, the timeouts and the header limit. */
  serverOptions(http: HttpConfig) {
    return {
      clientErrorHandler: this.onClientError,
      requestTimeout: http.requestTimeoutMs,
      http: {
        headersTimeout: http.headersTimeoutMs,
        // How often Node looks for overdue requests (its default, 30 s, let a slow client stay 30 s past its limit).
        connectionsCheckingInterval: Math.min(1_000, Math.ceil(http.headersTimeoutMs / 4)),
        maxHeaderSize: HEADER_LIMIT_BYTES,
      },
    };
  }

  /** Starts watching the server's requests; call once, with the server Fastify made. */
  watch(server: Server, log: FastifyBaseLogger): void {
    this.log = log;
    // A documented-nowhere property of Node's server (its constructor sets it false); the half-close test in
    // one-answer.test.ts fails if a Node upgrade drops it.
    Object.assign(server, { httpAllowHalfOpen: true });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      const state = this.stateOf(socket);
      state.requests += 1;
      // Already answered on its own connection (a stored read answered before the router: stored-reads.ts), its
      // bytes are in the socket's queue ahead of anything written after: nothing to wait for before closing.
      if (response.writableEnded && response.socket === socket) return;
      const exchange = { request, response };
      state.open.add(exchange);
      response.once('close', () => {
        state.open.delete(exchange);
        if (state.error) this.settle(socket, state);
      });
    });
  }

  private stateOf(socket: Socket): ConnectionState {
    let state = this.connections.get(socket);
    if (!state) {
      state = { requests: 0, open: new Set(), error: undefined };
      this.connections.set(socket, state);
    }
    return state;
  }

  /** After a client error: close once the answers in flight are out, answering the error itself if it is owed. */
  private settle(socket: Socket, state: ConnectionState): void {
    const error = state.error;
    if (!error || socket.destroyed) return;
    const open = [...state.open];
    const only = open.length === 1 ? open[0] : undefined;
    if (open.length === 0) {
      if (state.requests === 0) this.answer(socket, error);
      this.close(socket);
    } else if (only && !only.request.complete && !only.response.headersSent) {
      // The bytes that broke the parser were this request's own body (or it never came): nothing else answers it.
      state.open.clear();
      this.answer(socket, error);
      this.close(socket);
    }
  }

  private answer(socket: Socket, error: NodeJS.ErrnoException): void {
    if (socket.writable) socket.write(answerFor(error));
  }

  /** Ends our side after what is written; the client's own close (or LINGER_MS) ends the rest. */
  private close(socket: Socket): void {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  }
}
