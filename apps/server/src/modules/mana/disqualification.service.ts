import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.repository';
import * as repo from './disqualification.repository';
import { bumpTotalsStamp } from './totals.repository';

/** What the audit keeps of an author's standing, before and after a change. */
function standingOf(author: repo.AuthorStanding) {
  return {
    disqualified: author.disqualified,
    reason: author.disqualified_reason,
    by: author.disqualified_by,
    at: author.disqualified_at?.toISOString() ?? null,
  };
}

/**
 * Disqualifies (or requalifies) an author by handle, with a reason, audited (before and after) in the same
 * transaction. The reason, the actor and the time are kept on the author so the member's card can say why
 * (a requalification clears them; the audit log keeps the history). The author vanishes from the leaderboard at
 * once (the totals stamp moves in the same transaction, so every cache hears of it) and earns nothing at the next
 * totals run; the referrer who brought them in loses (or regains) that referral's
 * credit. Shared by the CLI (`npm run mana -- disqualify`) and the operator console.
 */
export async function setAuthorDisqualified(
  db: Kysely<Database>,
  input: { handle: string; disqualified: boolean; reason: string; actor: string; now?: Date },
): Promise<{ authorId: string; handle: string; referralsChanged: number }> {
  const at = input.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const author = await repo.findAuthorByHandle(trx, input.handle);
    if (!author) throw new NotFoundError(`No author with handle ${input.handle} has been seen`);
    const referralsChanged = await repo.setDisqualified(trx, author.id, input.disqualified);
    const note = input.disqualified ? { reason: input.reason, by: input.actor, at } : null;
    await repo.setDisqualificationNote(trx, author.id, note);
    // The public board leaves a disqualified author out as it reads: moving the stamp makes every API process's
    // cached pages (this one's and the others') read again, rather than wait for the next totals run.
    await bumpTotalsStamp(trx, at);
    const after = {
      disqualified: input.disqualified,
      reason: note?.reason ?? null,
      by: note?.by ?? null,
      at: note?.at.toISOString() ?? null,
    };
    await recordAudit(trx, {
      actor: input.actor,
      action: input.disqualified ? 'author.disqualify' : 'author.requalify',
      subject: author.id,
      details: {
        handle: author.handle,
        reason: input.reason,
        referralsChanged,
        before: standingOf(author),
        after,
      },
    });
    return { authorId: author.id, handle: author.handle, referralsChanged };
  });
}
