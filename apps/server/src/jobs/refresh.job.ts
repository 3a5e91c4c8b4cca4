import { applyMetricsBatch, finishRefreshPass } from '../modules/mana/ingest.service';
import { readState } from '../modules/mana/ingest-state.repository';
import { reconcileStreamBatch } from '../modules/mana/reconcile.service';
import { openPosts } from '../modules/mana/posts.repository';
import { activeRules } from '../modules/programme/programme.service';
import type { Job } from './job';

type RefreshCursor = { after?: { createdAt: string; id: string } };

/**
 * refresh: current metrics of every post not yet final, oldest first, in batches of the network's lookup size.
 * A post read after its refresh window becomes final; a deleted or protected one stops counting. Each batch
 * commits with the position reached, so an interrupted run resumes where it stopped. On a stream network the
 * stream keeps the last word on what it saw (ADR 013): `raised` counts it missed, `kept` counts the reading would
 * have lowered, `deleted` posts missing past the grace period.
 */
export const refreshJob: Job = {
  name: 'refresh',
  async run({ db, network, clock }) {
    const { rules } = await activeRules(db);
    const stored = ((await readState(db, 'refresh'))?.cursor ?? {}) as RefreshCursor;
    let after = stored.after ? { createdAt: new Date(stored.after.createdAt), id: stored.after.id } : null;
    let calls = 0;
    let read = 0;
    let raised = 0;
    let kept = 0;
    let deleted = 0;
    for (;;) {
      const batch = await openPosts(db, after, network.metricsBatchSize);
      if (batch.length === 0) break;
      const answer = await network.readMetrics(batch.map((p) => p.id));
      calls++;
      read += batch.length;
      const last = batch[batch.length - 1] as (typeof batch)[number];
      after = { createdAt: last.createdAt, id: last.id };
      const cursor: RefreshCursor = { after: { createdAt: last.createdAt.toISOString(), id: last.id } };
      const position = { job: 'refresh', value: cursor };
      // A stream network's reading may lag its stream: it raises counts, never lowers them (ADR 013).
      if (network.streamAuthority) {
        const r = await reconcileStreamBatch(
          db,
          rules,
          network.streamAuthority,
          batch,
          answer,
          position,
          new Date(clock.now()),
        );
        raised += r.raised;
        kept += r.kept;
        deleted += r.deleted;
      } else {
        await applyMetricsBatch(db, rules, batch, answer, position, new Date(clock.now()));
      }
    }
    await finishRefreshPass(db, 'refresh', new Date(clock.now()));
    const counts: Record<string, number> = { read };
    if (network.streamAuthority) Object.assign(counts, { raised, kept, deleted });
    return { calls, counts };
  },
};
