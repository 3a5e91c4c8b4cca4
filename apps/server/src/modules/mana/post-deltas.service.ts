import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ActiveRules } from '../programme/programme.service';
import * as authors from './authors.repository';
import * as deltas from './post-deltas.repository';
import * as posts from './posts.repository';
import { postMana, weekKey } from './scoring';
import * as totals from './totals.repository';

/** Queued post changes added to the totals per transaction. */
export const DELTA_BATCH = 5000;

/**
 * The totals job's cheap path (migration 0009): posts whose metrics alone changed while they stayed live and
 * open. Their author's posts, daily-limit slots and multiplier are what the last recompute left (any other
 * change marks the author for a full recompute, which drops these rows), so each post's new line is its stored
 * multiplier times the weighted metrics (0 over the limit), and the author's 'all' and week rows move by the
 * difference to what they last counted. The result equals a recompute from the ledger (the totals-rebuild
 * property checks it). One transaction per batch, ranks of the periods whose Mana moved renumbered in it.
 * Returns how many queued changes were applied.
 */
export async function applyQueuedChanges(
  db: Kysely<Database>,
  active: ActiveRules,
  now: Date,
): Promise<number> {
  const { rules, version } = active;
  let done = 0;
  for (;;) {
    const applied = await db.transaction().execute(async (trx) => {
      const queued = await deltas.queuedChanges(trx, DELTA_BATCH);
      if (queued.length === 0) return 0;
      const scores: Parameters<typeof posts.saveScores>[1][number][] = [];
      const sums = new Map<string, deltas.TotalsDelta>();
      const notLive: string[] = [];
      for (const q of queued) {
        if (q.status !== 'live') {
          // Not the cheap case after all (cannot happen in the worker's order of jobs): recompute the author.
          notLive.push(q.authorId);
          continue;
        }
        const mana = q.manaFixed ? q.mana : q.overLimit ? 0 : postMana(q.now, rules.weights, q.multiplier);
        const rulesVersion = q.manaFixed ? q.rulesVersion : version;
        if (mana !== q.mana || q.final !== q.manaFixed || rulesVersion !== q.rulesVersion) {
          const { overLimit, multiplier } = q;
          scores.push({ id: q.id, mana, overLimit, multiplier, fix: q.final, rulesVersion });
        }
        for (const period of ['all', weekKey(q.createdAt)]) {
          const key = `${period} ${q.authorId}`;
          const sum = sums.get(key) ?? {
            period,
            authorId: q.authorId,
            mana: 0,
            likes: 0,
            replies: 0,
            reposts: 0,
            quotes: 0,
          };
          sum.mana += mana - q.mana;
          sum.likes += q.now.likes - q.counted.likes;
          sum.replies += q.now.replies - q.counted.replies;
          sum.reposts += q.now.reposts - q.counted.reposts;
          sum.quotes += q.now.quotes - q.counted.quotes;
          sums.set(key, sum);
        }
      }
      const moved = [...sums.values()].filter(
        (d) => d.mana !== 0 || d.likes !== 0 || d.replies !== 0 || d.reposts !== 0 || d.quotes !== 0,
      );
      await posts.saveScores(trx, scores);
      await deltas.addToTotals(trx, moved);
      await deltas.dropQueued(trx, { postIds: queued.map((q) => q.id) });
      await authors.markAuthorsDirty(trx, notLive);
      await totals.rerank(trx, [...new Set(moved.filter((d) => d.mana !== 0).map((d) => d.period))]);
      if (moved.length > 0 || scores.length > 0) await totals.bumpTotalsStamp(trx, now);
      return queued.length;
    });
    if (applied === 0) return done;
    done += applied;
  }
}
