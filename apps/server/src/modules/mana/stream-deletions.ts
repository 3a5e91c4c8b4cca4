import type { ProgrammeRules } from '@manaboard/contract';
import type { PostMetrics } from '../../social/social-network';
import type { Db } from '../../db/schema';
import * as posts from './posts.repository';
import { isPastWindow } from './ingest.service';
import { METRIC, type RecordKind } from './stream-events';
import * as records from './stream-records.repository';
import type { TrackedPost } from './stream-records.repository';

/**
 * A batch's deletions: a deleted like, repost, reply or quote takes back what it gave (`move` by -1 on its post,
 * when it had counted; a record kept void gave nothing) and is kept, void, as evidence; a deleted tracked post
 * stops counting (no count of it moves any more in this batch); an official post is gone (the settle job's re-check
 * sees it). Returns how many records were taken back, those of tracked posts (`takenBack`: the caller tells which
 * counts did not move, their point now holding no record) and the authors whose rows changed.
 */
export async function applyDeletions(
  trx: Db,
  rules: ProgrammeRules,
  deletions: readonly string[],
  tracked: Map<string, TrackedPost>,
  move: (subjectId: string, kind: RecordKind, by: number) => void,
  forget: (postId: string) => void,
  now: Date,
): Promise<{ uncounted: number; touched: string[]; takenBack: Array<{ postId: string; kind: RecordKind }> }> {
  let uncountedCount = 0;
  const touched: string[] = [];
  const takenBack: Array<{ postId: string; kind: RecordKind }> = [];
  for (let i = 0; i < deletions.length; i += 1000) {
    const chunk = deletions.slice(i, i + 1000);
    // Set-based: the posts the uncounted records name are read at once, and the deleted posts closed in one
    // update per `final` value, so a batch's deletions cost a few statements, not a few per deletion.
    const uncounted = (await records.uncount(trx, chunk, now)).filter((r) => r.counted);
    const unknown = [...new Set(uncounted.map((r) => r.subject_id).filter((id) => !tracked.has(id)))];
    for (const [id, post] of await records.readTracked(trx, unknown)) tracked.set(id, post);
    for (const r of uncounted) {
      uncountedCount++;
      // An official post's interaction is no tracked post: the settle job's re-check sees it gone.
      if (tracked.has(r.subject_id)) {
        move(r.subject_id, r.kind, -1);
        takenBack.push({ postId: r.subject_id, kind: r.kind });
      }
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
  return { uncounted: uncountedCount, touched, takenBack };
}

/** Per post, the records taken back whose post's counts did not move in this batch (one point each, untraced). */
export function untracedPoints(
  takenBack: ReadonlyArray<{ postId: string; kind: RecordKind }>,
  moved: ReadonlySet<string>,
): Array<PostMetrics & { id: string }> {
  const byPost = new Map<string, PostMetrics & { id: string }>();
  for (const r of takenBack) {
    if (moved.has(r.postId)) continue;
    const row = byPost.get(r.postId) ?? { id: r.postId, likes: 0, replies: 0, reposts: 0, quotes: 0 };
    row[METRIC[r.kind]] += 1;
    byPost.set(r.postId, row);
  }
  return [...byPost.values()];
}
