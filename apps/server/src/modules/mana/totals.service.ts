import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ActiveRules } from '../programme/programme.service';
import * as authors from './authors.repository';
import * as posts from './posts.repository';
import { interactionLines } from './interactions.repository';
import { applyQueuedChanges } from './post-deltas.service';
import { dropQueued } from './post-deltas.repository';
import { referralLines, syncMemberFacts } from './member-facts.repository';
import { addBonusLines, periodTotals, scoreAuthorPosts } from './scoring';
import * as totals from './totals.repository';

/** Authors recomputed per transaction: small enough to keep a transaction short, big enough to be cheap. */
export const TOTALS_BATCH = 500;

/**
 * Recomputes the given authors from their post lines: each post's line (daily limit, multiplier, Mana, and the
 * rules version it was computed with) and the authors' rows of every period, then the global ranks of the periods
 * touched. Disqualified authors lose their rows (they vanish from the leaderboard). One transaction, so readers
 * never see half a batch.
 */
export async function recomputeAuthors(
  db: Kysely<Database>,
  active: ActiveRules,
  authorIds: readonly string[],
  now: Date,
): Promise<void> {
  if (authorIds.length === 0) return;
  const { rules, version } = active;
  await db.transaction().execute(async (trx) => {
    // The authors, then their posts, locked until this commits (a flag or count written meanwhile would
    // otherwise be cleared or dropped with the queue below while this read the posts without it).
    await authors.lockAuthors(trx, authorIds);
    const facts = await authors.authorFacts(trx, authorIds);
    const allPosts = await posts.postsOfAuthors(trx, authorIds);
    const bonus = [...(await referralLines(trx, authorIds)), ...(await interactionLines(trx, authorIds))];
    const byAuthor = new Map<string, posts.PostForScoring[]>();
    for (const post of allPosts) {
      const list = byAuthor.get(post.authorId);
      if (list) list.push(post);
      else byAuthor.set(post.authorId, [post]);
    }
    const rows: totals.TotalsRow[] = [];
    const changed: Parameters<typeof posts.saveScores>[1][number][] = [];
    for (const author of facts) {
      const own = byAuthor.get(author.id) ?? [];
      const scored = scoreAuthorPosts(
        own.map((p) => ({ ...p, live: p.status === 'live', fixed: p.manaFixed })),
        rules,
        author.linkedAt,
      );
      const lines = own.map((p, i) => ({ ...p, ...(scored[i] as (typeof scored)[number]) }));
      own.forEach((before, i) => {
        const after = scored[i];
        if (!after) return;
        const fix = before.final;
        // A fixed line keeps the version it was computed with; any other is now this version's (the ledger
        // names it, so a reader recomputes the line with the rules that made it).
        const rulesVersion = before.manaFixed ? before.rulesVersion : version;
        if (
          after.mana !== before.mana ||
          after.overLimit !== before.overLimit ||
          after.multiplier !== before.multiplier ||
          fix !== before.manaFixed ||
          rulesVersion !== before.rulesVersion
        ) {
          changed.push({ ...after, fix, rulesVersion });
        }
      });
      if (author.disqualified) continue;
      const per = addBonusLines(
        periodTotals(lines.map((l) => ({ ...l, live: l.status === 'live' }))),
        bonus.filter((line) => line.authorId === author.id),
      );
      for (const [period, t] of per) {
        rows.push({ period, authorId: author.id, firstTrackedAt: author.firstTrackedAt, ...t });
      }
    }
    const periods = new Set([...(await totals.periodsOf(trx, authorIds)), ...rows.map((r) => r.period)]);
    await posts.saveScores(trx, changed);
    await totals.replaceTotals(trx, authorIds, rows);
    await totals.rerank(trx, [...periods]);
    await authors.clearDirty(trx, authorIds);
    // Their queued per-post changes are in what was just computed from the posts themselves.
    await dropQueued(trx, { authorIds });
    await totals.bumpTotalsStamp(trx, now);
  });
}

/**
 * Recomputes every author waiting for it (after syncing the member facts), batch by batch, then adds the
 * queued per-post metric changes of the other authors (post-deltas.service); returns how many authors were
 * recomputed and posts applied.
 */
export async function recomputeDirtyTotals(
  db: Kysely<Database>,
  active: ActiveRules,
  now: Date,
  onProgress?: (authorsDone: number) => void,
): Promise<number> {
  await syncMemberFacts(db, now);
  let done = 0;
  for (;;) {
    const ids = await authors.dirtyAuthorIds(db, TOTALS_BATCH);
    if (ids.length === 0) return done + (await applyQueuedChanges(db, active, now));
    await recomputeAuthors(db, active, ids, now);
    done += ids.length;
    onProgress?.(done);
  }
}

/** `npm run mana:rebuild`: recomputes every author from the ledger; must equal the incremental result. */
export async function rebuildAllTotals(
  db: Kysely<Database>,
  active: ActiveRules,
  now: Date,
  onProgress?: (authorsDone: number) => void,
) {
  await authors.markAllAuthorsDirty(db);
  return recomputeDirtyTotals(db, active, now, onProgress);
}
