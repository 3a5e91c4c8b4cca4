import { Readable } from 'node:stream';
import { constants as zlib } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerEditionParamsSchema, ledgerWeekParamsSchema } from '@manaboard/contract/ledger';
import { CatalogueError } from '../../lib/errors';
import {
  ledgerIndex,
  editionDocument,
  weekDocument,
  type LedgerDeps,
  type LedgerDocument,
} from './ledger.service';

const NDJSON = 'application/x-ndjson; charset=utf-8';

/**
 * The open week's text is compressed as every answer is, though `application/x-ndjson` is no type
 * @fastify/compress knows, the quickest encoding the client takes first: a stream of hundreds of MB must not wait
 * on the compressor, nor the client on its decompressor. Measured on ledger text here (docs/benchmarks.md): zstd
 * level 1 compresses about 850 MB/s and decompresses about 800 MB/s; gzip level 1 270–470 MB/s and 510 MB/s;
 * brotli 2 about 280 MB/s and 560 MB/s (quality 4, the default: 45 MB/s, hardly smaller). Browsers send zstd
 * (Chrome: `gzip, deflate, br, zstd`) and so does Node's fetch when asked. `zlibOptions` serves both gzip (`level`)
 * and zstd (`params`), as @fastify/compress hands the same object to each. A closed edition is stored as gzip and
 * sent as it is to every client that takes gzip. Hashes are of the uncompressed bytes.
 */
const compress = {
  customTypes: /^application\/x-ndjson(?:;|$)/,
  encodings: ['zstd', 'gzip', 'br'] as Array<'zstd' | 'gzip' | 'br'>,
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 2 } },
  zlibOptions: { level: 1, params: { [zlib.ZSTD_c_compressionLevel]: 1 } },
};

/** Whether the client takes gzip (Accept-Encoding names gzip, x-gzip or *, with a q above 0). */
function takesGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return ['gzip', 'x-gzip', '*'].includes(name.trim()) && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** Open weeks built at once by this process at most: each reads the whole week (and, on PostgreSQL, holds two connections, ledger-snapshot.ts). */
const MAX_OPEN_BUILDS = 2;
/** LEDGER_SEND_WAIT_SECONDS' default. */
export const DEFAULT_SEND_WAIT_MS = 60_000;

/**
 * The open week's text, handed on only while its client takes it within a budget: the time the build spends
 * waiting on the client (a piece handed on and not yet taken: the socket's buffers and the compressor full) adds
 * up, and once it passes `waitMs` the answer is cut off (`cut`: the connection destroyed, which ends the build
 * and frees its slot). The build's own time (reading the database) is not counted. Without it, a client that
 * stops reading, or reads a byte a minute, holds one of the MAX_OPEN_BUILDS slots and its snapshot for good.
 */
async function* withSendBudget<T>(
  body: AsyncIterable<T>,
  waitMs: number,
  cut: (waitedMs: number) => void,
): AsyncGenerator<T, void, undefined> {
  let waited = 0;
  for await (const piece of body) {
    const handedAt = performance.now();
    const timer = setTimeout(() => cut(waited + (performance.now() - handedAt)), waitMs - waited);
    try {
      yield piece;
    } finally {
      clearTimeout(timer);
    }
    waited += performance.now() - handedAt;
  }
}

/**
 * The weekly ledger (docs/ledger-format.md): `GET /api/ledger` (the index), `GET /api/ledger/:week` (the newest
 * edition, or the open week as it stands) and `GET /api/ledger/:week/:edition` (a closed edition, byte for byte,
 * cacheable forever). Documents are streamed with backpressure; a bad week or edition is a 400 in the community
 * API's dialect, a week without a ledger a 404. The open week's build is cut off once it has waited on its client
 * for `sendWaitMs` in all (LEDGER_SEND_WAIT_SECONDS), so a reader that stops cannot hold a build slot.
 */
export const ledgerRoutes: FastifyPluginAsyncZod<LedgerDeps & { sendWaitMs?: number }> = async (
  app,
  deps,
) => {
  let openBuilds = 0;
  const sendWaitMs = deps.sendWaitMs ?? DEFAULT_SEND_WAIT_MS;

  const send = (request: FastifyRequest, reply: FastifyReply, doc: LedgerDocument, immutable: boolean) => {
    void reply.type(NDJSON).header('Vary', 'Accept-Encoding');
    if (doc.kind === 'open') {
      if (openBuilds >= MAX_OPEN_BUILDS)
        throw new CatalogueError(429, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': '10' });
      openBuilds++;
      const cut = (waitedMs: number) => {
        request.log.warn(
          { url: request.url, waitedMs: Math.round(waitedMs) },
          'ledger: the client took the open week too slowly; cut off',
        );
        request.raw.socket.destroy();
        body.destroy();
      };
      const body = Readable.from(withSendBudget(doc.body, sendWaitMs, cut), { objectMode: false });
      body.once('close', () => openBuilds--);
      // The open week moves: its hash is only known once the last byte is written, so no header carries it.
      return reply.header('Cache-Control', 'no-cache').send(body);
    }
    const { edition } = doc;
    // One content in two encodings: a weak validator.
    const etag = `W/"${edition.sha256.slice('sha256:'.length)}"`;
    void reply
      .header('X-Ledger-Sha256', edition.sha256)
      .header('X-Ledger-Edition', String(edition.edition))
      .header('ETag', etag)
      .header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    const match = request.headers['if-none-match'];
    if (match === etag || match === etag.slice(2)) return reply.code(304).send();
    if (takesGzip(request)) {
      // The stored pieces are the gzip answer: sent as they are (@fastify/compress leaves an encoded answer alone).
      void reply.header('Content-Encoding', 'gzip').header('Content-Length', String(edition.gzip_length));
      return reply.send(Readable.from(doc.gzip(), { objectMode: false }));
    }
    void reply.header('Content-Length', String(edition.byte_length));
    return reply.send(Readable.from(doc.bytes(), { objectMode: false }));
  };

  app.get('/api/ledger', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=60').send(await ledgerIndex(deps)),
  );
  app.get(
    '/api/ledger/:week',
    { schema: { params: ledgerWeekParamsSchema }, compress },
    async (request, reply) => send(request, reply, await weekDocument(deps, request.params.week), false),
  );
  app.get(
    '/api/ledger/:week/:edition',
    { schema: { params: ledgerEditionParamsSchema }, compress },
    async (request, reply) =>
      send(request, reply, await editionDocument(deps, request.params.week, request.params.edition), true),
  );
};
