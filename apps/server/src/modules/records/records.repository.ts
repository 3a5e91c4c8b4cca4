import type { Db } from '../../db/schema';
import { countingReferrals } from '../referrals/referrals.repository';

/**
 * A post of this author as its records page needs it (one read: the post, and whether its author is disqualified):
 * its counts and untraced points, and its line's state. Undefined when the post is not the author's.
 */
export async function findPostOf(db: Db, authorId: string, id: string) {
  return db
    .selectFrom('posts')
    .innerJoin('authors', 'authors.id', 'posts.author_id')
    .select([
      'posts.id',
      'authors.disqualified',
      'likes',
      'replies',
      'reposts',
      'quotes',
      'untraced_likes',
      'untraced_replies',
      'untraced_reposts',
      'untraced_quotes',
      'status',
      'over_limit',
    ])
    .where('posts.id', '=', id)
    .where('posts.author_id', '=', authorId)
    .executeTakeFirst();
}

/**
 * One page of a post's records, newest first (index stream_records_subject_time_idx), with each record's author's
 * handle when the programme knows the author. The page is cut first and only its rows are joined to the authors,
 * so a deep page costs the index entries it skips, not a join of each. `limit + 1` rows tell whether more follow.
 */
export async function postRecords(db: Db, postId: string, offset: number, limit: number) {
  return db
    .selectFrom(
      db
        .selectFrom('stream_records')
        .select(['id', 'kind', 'author_id', 'created_at', 'cid', 'state', 'void_reason', 'source'])
        .where('subject_id', '=', postId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .orderBy('kind')
        .offset(offset)
        .limit(limit)
        .as('r'),
    )
    .leftJoin('authors as a', 'a.id', 'r.author_id')
    .select([
      'r.id',
      'r.kind',
      'r.author_id',
      'r.created_at',
      'r.cid',
      'r.state',
      'r.void_reason',
      'r.source',
      'a.handle',
    ])
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .orderBy('r.kind')
    .execute();
}

/** One page of a member's interactions with official posts (all of them, or one post's), newest first. */
export async function interactionRecords(
  db: Db,
  memberId: string,
  postId: string | undefined,
  offset: number,
  limit: number,
) {
  let query = db
    .selectFrom('interactions')
    .select([
      'post_id',
      'kind',
      'status',
      'detected_at',
      'check_after',
      'settle_by',
      'note',
      'record_id',
      'record_cid',
    ])
    .where('member_id', '=', memberId);
  if (postId !== undefined) query = query.where('post_id', '=', postId);
  return query
    .orderBy('detected_at', 'desc')
    .orderBy('post_id')
    .orderBy('kind')
    .offset(offset)
    .limit(limit)
    .execute();
}

/**
 * One page of the referrals a member made, newest first: the referee's account and when the referral was made,
 * and whether it counts (the referral module's countingReferrals: credited, referee linked and not disqualified).
 */
export async function referralRecords(db: Db, referrerId: string, offset: number, limit: number) {
  const rows = await db
    .selectFrom('referrals')
    .innerJoin('accounts as referrer', 'referrer.id', 'referrals.referrer_account_id')
    .innerJoin('accounts as referee', 'referee.id', 'referrals.referee_account_id')
    .select([
      'referrals.id',
      'referee.network_user_id',
      'referee.handle',
      'referee.disqualified',
      'referrals.status',
      'referrals.created_at',
    ])
    .where('referrer.network_user_id', '=', referrerId)
    .orderBy('referrals.created_at', 'desc')
    .orderBy('referrals.id')
    .offset(offset)
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const counting = new Set(
    (
      await countingReferrals(db)
        .select('referrals.id')
        .where(
          'referrals.id',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
    ).map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, counts: counting.has(r.id) }));
}
