import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerProofQuerySchema, ledgerWeekParamsSchema } from '@manaboard/contract/ledger';
import type { Db } from '../../db/schema';
import { sendStored, storedAnswer } from '../../http/representations';
import { keptProof } from './record-proofs.service';

/** A kept proof never changes (its commit is signed): caches may keep it long; the ETag makes revalidation free. */
const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

/**
 * `GET /api/ledger/:week/proof?uri=<AT URI>` (issue 30): the proof kept when the record was counted, for a verifier
 * to tell a record deleted since from one that never existed. 400 for a bad week or uri, 404 when none is kept.
 *
 * It lives beside the ledger's own routes (`/api/ledger/:week/:edition`, modules/ledger): Fastify's router tries a
 * static segment before a parametric one, so `proof` is matched here and never read as an edition.
 */
export const recordProofsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/ledger/:week/proof',
    { schema: { params: ledgerWeekParamsSchema, querystring: ledgerProofQuerySchema }, compress: false },
    async (request, reply) =>
      sendStored(request, reply, storedAnswer(await keptProof(db, request.query.uri)), CACHE_CONTROL),
  );
};
