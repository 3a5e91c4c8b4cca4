import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { NotFoundError } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import * as repo from './disqualification.repository';

/**
 * Disqualifies (or requalifies) an author by handle, with a reason, audited in the same transaction. The
 * author vanishes from the leaderboard and earns nothing at the next totals run; the referrer who brought them
 * in loses (or regains) that referral's credit.
 */
export async function setAuthorDisqualified(
  db: Kysely<Database>,
  input: { handle: string; disqualified: boolean; reason: string; actor: string },
): Promise<{ authorId: string; handle: string; referralsChanged: number }> {
  return db.transaction().execute(async (trx) => {
    const author = await repo.findAuthorByHandle(trx, input.handle);
    if (!author) throw new NotFoundError(`No author with handle ${input.handle} has been seen`);
    const referralsChanged = await repo.setDisqualified(trx, author.id, input.disqualified);
    await recordAudit(trx, {
      actor: input.actor,
      action: input.disqualified ? 'author.disqualify' : 'author.requalify',
      subject: author.id,
      details: { handle: author.handle, reason: input.reason, referralsChanged },
    });
    return { authorId: author.id, handle: author.handle, referralsChanged };
  });
}
