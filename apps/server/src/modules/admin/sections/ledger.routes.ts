import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminLedgerCheckResponseSchema,
  adminLedgerCorrectBodySchema,
  adminLedgerCorrectionResponseSchema,
  adminLedgerResponseSchema,
  adminLedgerWeekBodySchema,
} from '@manaboard/contract/admin';
import { ConflictError, TryAgainError } from '../../../lib/errors';
import { consoleLedger } from '../../ledger/ledger-admin.service';
import { checkWeek, issueCorrection } from '../../ledger/ledger-correction.service';
import { EditionBusyError } from '../../ledger/ledger-store.service';
import { LedgerMovedError } from '../../ledger/ledger-writer';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/** Seconds an operator is asked to wait before building again after the data moved under a build. */
const MOVED_RETRY_SECONDS = 5;

/**
 * The ledger's own failures as answers (else a 500): another build of the same edition under way (409), or the
 * data changed while the week was read (PGlite, no snapshot), so the build was dropped whole (503, try again).
 */
export function ledgerFailure(error: unknown): unknown {
  if (error instanceof EditionBusyError) {
    return new ConflictError(
      'Another correction of this week is being built right now: wait for it to finish, then check the week again.',
    );
  }
  if (error instanceof LedgerMovedError) {
    return new TryAgainError(
      'The data changed while the ledger was being built, so nothing was kept: try again in a moment.',
      MOVED_RETRY_SECONDS,
    );
  }
  return error;
}

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
    async (request) => ({
      success: true as const,
      data: await checkWeek(context, request.body.week).catch((error: unknown) => {
        throw ledgerFailure(error);
      }),
    }),
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
      }).catch((error: unknown) => {
        throw ledgerFailure(error);
      });
      return {
        success: true as const,
        data: { edition: edition.edition, sha256: edition.sha256, membersChanged: check.membersChanged },
      };
    },
  );
};
