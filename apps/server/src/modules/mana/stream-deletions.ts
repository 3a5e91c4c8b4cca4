import type { ProgrammeRules } from '@manaboard/contract';
import type { Db } from '../../db/schema';
import * as posts from './posts.repository';
import { isPastWindow } from './ingest.service';
import type { RecordKind } from './stream-events';
import * as records from './stream-records.repository';
import type { TrackedPost } from './stream-records.repository';

/**
 * A batch's deletions: a deleted like, repost, reply or quote takes back what it gave (`move` by -1 on its post); a
 * deleted tracked post stops counting (no count of it moves any more in this batch); an official post is gone (the
 * settle job's re-check sees it). Returns how many records were taken back and the authors whose rows changed.
 */
export async function applyDeletions(
  trx: Db,
  rules: ProgrammeRules,
  deletions: readonly string[],
  tracked: Map<string, TrackedPost>,
  move: (subjectId: string, kind: RecordKind, by: number) => void,
  forget: (postId: string) => void,
  now: Date,
): Promise<{ uncounted: number; touched: string[] }> {
  let uncounted = 0;
  const touched: string[] = [];
  for (let i = 0; i < deletions.length; i += 1000) {
    const chunk = deletions.slice(i, i + 1000);
    for (const r of await records.uncount(trx, chunk)) {
      uncounted++;
      if (!tracked.has(r.subject_id)) {
        const post = await records.readTracked(trx, r.subject_id);
        if (!post) continue; // an official post's interaction: the settle job's re-check sees it gone
        tracked.set(r.subject_id, post);
      }
      move(r.subject_id, r.kind, -1);
    }
    const deletedPosts = await trx
      .selectFrom('posts')
      .select(['id', 'created_at'])
      .where('id', 'in', chunk)
      .where('final', '=', false)
      .execute();
    for (const p of deletedPosts) {
      const author = await posts.markMissing(
        trx,
        { id: p.id, status: 'deleted', final: isPastWindow(rules, p.created_at, now) },
        now,
      );
      if (author) touched.push(author);
      tracked.delete(p.id);
      forget(p.id);
    }
    await trx.updateTable('official_posts').set({ deleted: true }).where('id', 'in', chunk).execute();
  }
  return { uncounted, touched };
}
