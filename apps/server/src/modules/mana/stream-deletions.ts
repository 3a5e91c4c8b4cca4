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
  let uncountedCount = 0;
  const touched: string[] = [];
  for (let i = 0; i < deletions.length; i += 1000) {
    const chunk = deletions.slice(i, i + 1000);
    // Set-based: the posts the uncounted records name are read at once, and the deleted posts closed in one
    // update per `final` value, so a batch's deletions cost a few statements, not a few per deletion.
    const uncounted = await records.uncount(trx, chunk);
    const unknown = [...new Set(uncounted.map((r) => r.subject_id).filter((id) => !tracked.has(id)))];
    for (const [id, post] of await records.readTracked(trx, unknown)) tracked.set(id, post);
    for (const r of uncounted) {
      uncountedCount++;
      // An official post's interaction is no tracked post: the settle job's re-check sees it gone.
      if (tracked.has(r.subject_id)) move(r.subject_id, r.kind, -1);
    }
    const deletedPosts = await trx
      .selectFrom('posts')
      .select(['id', 'created_at'])
      .where('id', 'in', chunk)
      .where('final', '=', false)
      .execute();
    for (const final of [false, true]) {
      const ids = deletedPosts
        .filter((p) => isPastWindow(rules, p.created_at, now) === final)
        .map((p) => p.id);
      touched.push(...(await posts.markManyDeleted(trx, ids, final, now)));
    }
    for (const p of deletedPosts) {
      tracked.delete(p.id);
      forget(p.id);
    }
    await trx.updateTable('official_posts').set({ deleted: true }).where('id', 'in', chunk).execute();
  }
  return { uncounted: uncountedCount, touched };
}
