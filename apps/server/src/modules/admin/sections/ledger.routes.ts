import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminLedgerCheckResponseSchema,
  adminLedgerCorrectBodySchema,
  adminLedgerCorrectionResponseSchema,
  adminLedgerResponseSchema,
  adminLedgerWeekBodySchema,
} from '@manaboard/contract/admin';
import { consoleLedger } from '../../ledger/ledger-admin.service';
import { checkWeek, issueCorrection } from '../../ledger/ledger-correction.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * The weekly ledger (ADR 014): every week, its editions, their hashes and publication (or the text to post by
 * hand); a closed week checked against the data now; a correction (the next edition, audited) when its figures
 * changed. Weeks close and hashes are published by the worker's ledger job, not here.
 */
export const adminLedgerRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (
  app,
  { db, config, now, databaseKind, publishesLedger: automatic },
) => {
  const context = { db, kind: databaseKind };
  const deps = { ...context, network: config.socialNetwork, now, publicOrigin: config.publicOrigin };

  app.get('/ledger', { schema: { response: { 200: adminLedgerResponseSchema } } }, async () => ({
    success: true as const,
    data: await consoleLedger(deps, { automatic }),
  }));

  app.post(
    '/ledger/check',
    { schema: { body: adminLedgerWeekBodySchema, response: { 200: adminLedgerCheckResponseSchema } } },
    async (request) => ({ success: true as const, data: await checkWeek(context, request.body.week) }),
  );

  app.post(
    '/ledger/correct',
    {
      schema: { body: adminLedgerCorrectBodySchema, response: { 200: adminLedgerCorrectionResponseSchema } },
    },
    async (request) => {
      const { edition, check } = await issueCorrection(context, request.body.week, {
        actor: adminOf(request).actor,
        reason: request.body.reason,
        now: new Date(now()),
      });
      return {
        success: true as const,
        data: { edition: edition.edition, sha256: edition.sha256, membersChanged: check.membersChanged },
      };
    },
  );
};
