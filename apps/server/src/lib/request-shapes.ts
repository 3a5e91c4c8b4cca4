import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps the last request and response the server handled alive, one pair for each way through it (issue 33), for
 * the reason tick-shape.ts keeps a nextTick entry: V8 remembers the shapes (hidden classes) an object reached
 * only while some object has them. Between bursts of requests no request, response or socket is alive, so a full
 * collection then (V8's own when the process goes quiet, or the server's settling in memory-trim.ts) forgets the
 * shapes of all of them, and the requests after it get new ones: Node's HTTP code, optimised for the old shapes,
 * goes polymorphic and then megamorphic, a little more after each such collection. Measured on a plain node:http
 * server answering the posts' 8.6 KB (docs/benchmarks.md, "shapes forgotten between bursts"): a full collection in
 * each pause between 2-s rounds of load cost each request 28-33 % more CPU after 35 pauses, 8-11 % with the
 * nextTick entry kept, and nothing with this pair kept as well. The request holds its socket, so the socket's shapes are kept too.
 *
 * What is kept is one finished exchange of each kind, replaced by the next: a few kilobytes, nothing new.
 */
export class RequestShapes {
  private answeredRequest: IncomingMessage | undefined;
  private answeredResponse: ServerResponse | undefined;
  private routedRequest: IncomingMessage | undefined;
  private routedResponse: ServerResponse | undefined;

  /** A request answered before the router (http/stored-reads.ts). */
  answered(request: IncomingMessage, response: ServerResponse): void {
    this.answeredRequest = request;
    this.answeredResponse = response;
  }

  /** A request handed to Fastify. */
  routed(request: IncomingMessage, response: ServerResponse): void {
    this.routedRequest = request;
    this.routedResponse = response;
  }

  /**
   * A new connection: its peer's address is read at once, on every socket. Node's socket keeps that address in a
   * property it adds the first time anything reads it (`remoteAddress`: Fastify's `request.ip`, a rate limit's key,
   * a request log line), so where only the rare requests read it (a sampled log line: one in a thousand), the
   * server's sockets have two shapes and Node's HTTP code, optimised for one, meets both on every connection. Read
   * here, every socket takes the same shape before its first request. Measured on the plain posts
   * (docs/benchmarks.md, "a socket's peer address, read once in a thousand"): the sampled line's read alone cost
   * every request 6-11 % more CPU. One `getpeername` call a connection.
   */
  connected(socket: Socket): void {
    void socket.remoteAddress;
  }

  /** The pairs held (tests). */
  held(): {
    answered: [IncomingMessage, ServerResponse] | undefined;
    routed: [IncomingMessage, ServerResponse] | undefined;
  } {
    const pair = (request?: IncomingMessage, response?: ServerResponse) =>
      request && response ? ([request, response] as [IncomingMessage, ServerResponse]) : undefined;
    return {
      answered: pair(this.answeredRequest, this.answeredResponse),
      routed: pair(this.routedRequest, this.routedResponse),
    };
  }
}
