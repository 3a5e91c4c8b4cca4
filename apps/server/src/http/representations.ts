import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from './etag';

/** The encodings a stored answer is kept in besides plain JSON, best first. */
export type Encoding = 'br' | 'gzip';

/**
 * One answer serialised once, with its ETag, and its compressed forms, each made the first time a client asks
 * for that encoding and then kept with the answer (the cached answer is never compressed again per request).
 * Each form has its own ETag (RFC 9110 §8.8.3: an ETag names one representation).
 */
export type StoredAnswer = {
  /**
   * The JSON's UTF-8 bytes as they are written (`wireBody`), made once: the one copy of the answer kept (its
   * compressed forms are made from it).
   */
  plain: WireBody;
  etag: string;
  compressed: Partial<Record<Encoding, CompressedForm>>;
};

/** A compressed form: its bytes, the same bytes as they are written (`wireBody`), and its ETag. */
type CompressedForm = { bytes: Buffer; wire: WireBody; etag: string };

/**
 * A body as it is handed to Node: under WRITEV_FROM_BYTES, the bytes as a latin1 string (one char per byte, so its
 * length is the Content-Length), which Node joins to its headers into one write; from it on, the bytes themselves.
 * A string body is copied twice on every write (V8 flattens the headers joined to it into a new string, a
 * garbage-collected copy of the whole body, then writes that into the socket's buffer), a Buffer body never, but
 * is written by Node after the headers as a second chunk (`writev`), which costs a fixed amount more. Counted in
 * instructions (`npm run bench write-forms`, docs/benchmarks.md 29 November 2026), the two cost the same at 8 KiB.
 */
export type WireBody = string | Buffer;

/** From this size on a body is handed to Node as bytes (`WireBody`). */
export const WRITEV_FROM_BYTES = 8 * 1024;

/** The bytes of a body as `sendStored` writes them. */
export function wireBody(bytes: Buffer, latin1?: string): WireBody {
  return bytes.length >= WRITEV_FROM_BYTES ? bytes : (latin1 ?? bytes.toString('latin1'));
}

/** A body's bytes: a latin1 string holds one byte a char. */
export const bytesOf = (body: WireBody): Buffer =>
  typeof body === 'string' ? Buffer.from(body, 'latin1') : body;

/** Below this, compression costs more than it saves (the size @fastify/compress uses too). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** A Cache-Control that lets nobody store the answer (RFC 9111 §5.2.2.5): such an answer gets no ETag. */
const NO_STORE = /(^|[\s,])no-store([\s,]|$)/i;

/** Brotli quality 5: within a few percent of 11 on these small JSON answers at a fraction of the time. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

export function storedAnswer(body: unknown): StoredAnswer {
  return storedJson(JSON.stringify(body));
}

export function storedJson(json: string): StoredAnswer {
  const utf8 = Buffer.from(json, 'utf8');
  return {
    // All ASCII: the JSON is its own latin1 form.
    plain: wireBody(utf8, utf8.length === json.length ? json : undefined),
    etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
    compressed: {},
  };
}

function compressedForm(answer: StoredAnswer, encoding: Encoding): CompressedForm {
  const kept = answer.compressed[encoding];
  if (kept) return kept;
  const plain = bytesOf(answer.plain);
  const bytes = encoding === 'br' ? brotliCompressSync(plain, BROTLI) : gzipSync(plain);
  // The tag of the JSON with the encoding appended: a new tag per representation, still tied to the content.
  const form = { bytes, wire: wireBody(bytes), etag: `${answer.etag.slice(0, -1)}-${encoding}"` };
  answer.compressed[encoding] = form;
  return form;
}

/** Whether a coding is accepted: listed (or `*`) with a q-value above 0 (RFC 9110 §12.5.3). */
function accepts(header: string, coding: string): boolean {
  let wildcard: boolean | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (token !== coding && token !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (token === coding) return ok;
    wildcard = ok;
  }
  return wildcard ?? false;
}

// Browsers send one of a handful of Accept-Encoding strings: parse each once (bounded, as clients choose it).
const negotiated = new Map<string, Encoding | null>();

/** The encoding to answer with for an Accept-Encoding header: br, then gzip, else none. */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const choice = accepts(header, 'br') ? 'br' : accepts(header, 'gzip') ? 'gzip' : null;
  if (negotiated.size >= 100) negotiated.clear();
  negotiated.set(header, choice);
  return choice;
}

/**
 * Sends a stored answer in the encoding the client accepts (stored bytes, compressed at most once per encoding),
 * with `Vary: Accept-Encoding` (when the answer is large enough to be compressed), the representation's ETag and
 * 304 when If-None-Match names it (unless Cache-Control says `no-store`). Routes using it
 * set `compress: false` so @fastify/compress does not look at the bytes again. A shared answer (the same for every
 * client) may say how to find it again, synchronously (`again`: the route's cache lookup for this request's key,
 * undefined when it has none fresh): the same request after it is then answered before the router while `again`
 * gives this answer (http/stored-reads.ts).
 */
export function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: StoredAnswer,
  cacheControl: string,
  again?: () => StoredAnswer | undefined,
): FastifyReply {
  const compressible = answer.plain.length >= COMPRESS_THRESHOLD_BYTES;
  const encoding = compressible ? negotiateEncoding(request.headers['accept-encoding']) : null;
  const form = encoding ? compressedForm(answer, encoding) : undefined;
  void reply.header('cache-control', cacheControl);
  // Only what an answer's bytes can depend on is sent: an answer under the threshold is the same bytes whatever
  // Accept-Encoding says, and one nobody may store has nothing to revalidate. Each header line left out is work
  // saved on every request, for the server and the client alike (issue 33, docs/benchmarks.md 29 November).
  if (compressible) {
    // Added to what is there (CORS has put `Origin` in Vary): replacing it would let a shared cache mix origins.
    const vary = reply.getHeader('vary');
    void reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  }
  if (!NO_STORE.test(cacheControl)) {
    const etag = form?.etag ?? answer.etag;
    void reply.header('etag', etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  void reply.type('application/json; charset=utf-8');
  const remember =
    again &&
    ((headers: Record<string, string>, body: WireBody) =>
      request.server.storedReads?.remember(
        request.raw as RawKey,
        request.routeOptions.url ?? '',
        { answer, headers, body },
        again,
      ));
  if (!form || !encoding) return sendStoredBytes(request, reply, answer.plain, remember);
  void reply.header('content-encoding', encoding);
  return sendStoredBytes(request, reply, form.wire, remember);
}

type RawKey = { method: string; url: string; headers: FastifyRequest['headers'] };

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers every JSON answer carries (set by http/security.ts; added by `sendStoredBytes`). */
    jsonSecurityHeaders?: [string, string][];
  }
}

/**
 * Writes the stored bytes, plain or compressed, with their headers straight to Node (a body under
 * WRITEV_FROM_BYTES as a latin1 string, which Node joins to its headers into one write: for a small answer a Buffer's
 * second chunk alone cost a third of the throughput, bench/as-users-get-it.ts, docs/benchmarks.md). Fastify's reply
 * is hijacked for it: its onSend hooks do not run, so what they would add is added here (the JSON security headers;
 * compression is already done, and the routes using it turn @fastify/compress off), which also spares a stored
 * answer the hooks' work on every request; its onResponse hooks (metrics, request log) still run when the response
 * finishes. Node leaves the body out of a HEAD answer itself.
 */
function sendStoredBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  body: WireBody,
  remember?: (headers: Record<string, string>, body: WireBody) => void,
): FastifyReply {
  for (const [name, value] of request.server.jsonSecurityHeaders ?? []) {
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
  // Either form's length is its length in bytes.
  void reply.header('content-length', body.length);
  reply.hijack();
  const raw = reply.raw;
  const headers = reply.getHeaders() as Record<string, string>;
  raw.writeHead(reply.statusCode, headers);
  raw.end(request.method === 'HEAD' ? undefined : body, 'latin1');
  if (remember && reply.statusCode === 200) remember(headers, body);
  return reply;
}
