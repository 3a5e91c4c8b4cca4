import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import type { PostRecord, RecordKind } from '../../social/social-network';
import { recordLine } from './stream-records.repository';

/** A post with points that hold no record yet, as the trace job reads it. */
export type UntracedPost = {
  id: string;
  createdAt: Date;
  untraced: Record<RecordKind, number>;
};

/**
 * Live posts holding points without a record whose counts moved since their records were last read (or never
 * read), the longest waiting first. Uses the partial index of migration 0020: its predicate is repeated here.
 */
export async function untracedPosts(db: Db, limit: number): Promise<UntracedPost[]> {
  const rows = await db
    .selectFrom('posts')
    .select(['id', 'created_at', 'untraced_likes', 'untraced_replies', 'untraced_reposts', 'untraced_quotes'])
    .where(sql<boolean>`untraced_likes + untraced_replies + untraced_reposts + untraced_quotes > 0`)
    .where('status', '=', 'live')
    .where((eb) => eb.or([eb('traced_at', 'is', null), eb('traced_at', '<', eb.ref('refreshed_at'))]))
    .orderBy('refreshed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    untraced: {
      like: r.untraced_likes,
      reply: r.untraced_replies,
      repost: r.untraced_reposts,
      quote: r.untraced_quotes,
    },
  }));
}

/** The records that already count on a post (by id and by author, per kind): the trace does not look for them. */
export async function countedRecords(
  db: Db,
  postId: string,
): Promise<Array<{ id: string; kind: RecordKind; author_id: string }>> {
  return db
    .selectFrom('stream_records')
    .select(['id', 'kind', 'author_id'])
    .where('subject_id', '=', postId)
    .where('state', '=', 'counted')
    .execute();
}

const COLUMN = {
  like: 'untraced_likes',
  reply: 'untraced_replies',
  repost: 'untraced_reposts',
  quote: 'untraced_quotes',
} as const;

/**
 * Stores the records a trace found for one post, in one transaction: each counts (source 'appview') in place of
 * one untraced point of its kind, at most as many as the post still has untraced (read under the row's lock, so
 * a stream batch storing the same records meanwhile is not counted twice: a record is kept once by its id). A
 * record already kept void because it came late is counted again: the AppView's count, which the reconcile took,
 * holds it. `complete`: every list was read in full, so the post is not read again until its counts move.
 */
export async function storeTraced(
  db: Db,
  post: { id: string; createdAt: Date },
  found: ReadonlyArray<PostRecord & { kind: RecordKind }>,
  complete: boolean,
  now: Date,
): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select(['untraced_likes', 'untraced_replies', 'untraced_reposts', 'untraced_quotes'])
    .where('id', '=', post.id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return 0;
  let stored = 0;
  const taken: Record<RecordKind, number> = { like: 0, reply: 0, repost: 0, quote: 0 };
  for (const kind of Object.keys(COLUMN) as RecordKind[]) {
    const records = found.filter((r) => r.kind === kind).slice(0, row[COLUMN[kind]]);
    if (records.length === 0) continue;
    const counted = await db
      .insertInto('stream_records')
      .values(
        records.map((r) => ({
          id: r.id,
          kind,
          subject_id: post.id,
          author_id: r.authorId,
          created_at: r.createdAt,
          cid: r.cid,
          line: recordLine({ ...r, kind, subjectId: post.id }),
          source: 'appview' as const,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['id', 'kind'])
          .doUpdateSet({ state: 'counted', void_reason: null, void_at: null })
          .where('stream_records.state', '=', 'void')
          .where('stream_records.void_reason', '=', 'late')
          // Only the same record come back: never another post's or another account's row under a borrowed id.
          .where('stream_records.subject_id', '=', post.id)
          .whereRef('stream_records.author_id', '=', 'excluded.author_id'),
      )
      .returning('id')
      .execute();
    taken[kind] = counted.length;
    stored += counted.length;
  }
  await db
    .updateTable('posts')
    .set((eb) => ({
      untraced_likes: sql`greatest(0, ${eb.ref('untraced_likes')} - ${taken.like})`,
      untraced_replies: sql`greatest(0, ${eb.ref('untraced_replies')} - ${taken.reply})`,
      untraced_reposts: sql`greatest(0, ${eb.ref('untraced_reposts')} - ${taken.repost})`,
      untraced_quotes: sql`greatest(0, ${eb.ref('untraced_quotes')} - ${taken.quote})`,
      ...(complete ? { traced_at: now } : {}),
    }))
    .where('id', '=', post.id)
    .execute();
  return stored;
}
