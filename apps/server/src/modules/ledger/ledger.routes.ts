import { Readable } from 'node:stream';
import { constants as zlib } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerEditionParamsSchema, ledgerWeekParamsSchema } from '@manaboard/contract/ledger';
import { CatalogueError } from '../../errors';
import {
  ledgerIndex,
  editionDocument,
  weekDocument,
  type LedgerDeps,
  type LedgerDocument,
} from './ledger.service';

const NDJSON = 'application/x-ndjson; charset=utf-8';

/**
 * The ledger's text is compressed as every answer is (Accept-Encoding: br, gzip), though `application/x-ndjson`
 * is no type @fastify/compress knows. A fast setting: the text is large and repetitive, so level 4 already
 * shrinks it about tenfold, and a stream of hundreds of MB must not wait on the compressor. The hash is of the
 * uncompressed bytes.
 */
const compress = {
  customTypes: /^application\/x-ndjson(?:;|$)/,
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 4 },
};

/** Open weeks built at once by this process at most: each reads the whole week (and, on PostgreSQL, holds a connection). */
const MAX_OPEN_BUILDS = 2;

/**
 * The weekly ledger (docs/ledger-format.md): `GET /api/ledger` (the index), `GET /api/ledger/:week` (the newest
 * edition, or the open week as it stands) and `GET /api/ledger/:week/:edition` (a closed edition, byte for byte,
 * cacheable forever). Documents are streamed with backpressure; a bad week or edition is a 400 in the community
 * API's dialect, a week without a ledger a 404.
 */
export const ledgerRoutes: FastifyPluginAsyncZod<LedgerDeps> = async (app, deps) => {
  let openBuilds = 0;

  const send = (request: FastifyRequest, reply: FastifyReply, doc: LedgerDocument, immutable: boolean) => {
    void reply.type(NDJSON).header('Vary', 'Accept-Encoding');
    if (doc.kind === 'open') {
      if (openBuilds >= MAX_OPEN_BUILDS)
        throw new CatalogueError(429, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': '10' });
      openBuilds++;
      const body = Readable.from(doc.body, { objectMode: false });
      body.once('close', () => openBuilds--);
      // The open week moves: its hash is only known once the last byte is written, so no header carries it.
      return reply.header('Cache-Control', 'no-cache').send(body);
    }
    const { edition } = doc;
    const etag = `"${edition.sha256.slice('sha256:'.length)}"`;
    void reply
      .header('X-Ledger-Sha256', edition.sha256)
      .header('X-Ledger-Edition', String(edition.edition))
      .header('ETag', etag)
      .header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    void reply.header('Content-Length', String(edition.byte_length));
    return reply.send(Readable.from(doc.body, { objectMode: false }));
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
