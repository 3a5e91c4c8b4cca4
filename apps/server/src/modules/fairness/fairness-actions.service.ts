import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { recordAudit } from '../audit/audit.repository';
import { recomputeFairnessFlags, type FairnessRun } from './fairness.service';

/**
 * An operator runs the detector now (the console's "Recompute"): the same run the worker's job makes, written to
 * the audit log with what it found.
 */
export async function recomputeFairnessNow(
  db: Kysely<Database>,
  options: { actor: string; now: Date },
): Promise<FairnessRun> {
  const run = await recomputeFairnessFlags(db, options.now);
  await recordAudit(db, {
    actor: options.actor,
    action: 'fairness.recompute',
    subject: null,
    details: { after: run.flags, authors: run.authors, ms: Math.round(run.ms) },
  });
  return run;
}
