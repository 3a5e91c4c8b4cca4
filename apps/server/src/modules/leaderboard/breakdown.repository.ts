import type { Db } from '../../db/schema';

/** An author as the breakdown names them. */
export async function findAuthor(db: Db, id: string) {
  return db
    .selectFrom('authors')
    .select(['id', 'handle', 'disqualified'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every tracked post of an author created in [since, until) (all of them without bounds), oldest first. */
export async function postLines(db: Db, authorId: string, since: Date | null, until: Date | null) {
  let query = db
    .selectFrom('posts')
    .select([
      'id',
      'created_at',
      'likes',
      'replies',
      'reposts',
      'quotes',
      'multiplier',
      'mana',
      'status',
      'final',
      'over_limit',
    ])
    .where('author_id', '=', authorId);
  if (since) query = query.where('created_at', '>=', since);
  if (until) query = query.where('created_at', '<', until);
  return query.orderBy('created_at').orderBy('id').execute();
}

/**
 * Every interaction line of a member (pending, credited or void) with its due dates: re-checked no earlier than
 * `check_after`, settled by `settle_by`; `settled_at` is when it was credited or voided.
 */
export async function interactionHistory(db: Db, memberId: string) {
  return db
    .selectFrom('interactions')
    .select(['post_id', 'kind', 'status', 'reward', 'detected_at', 'check_after', 'settle_by', 'settled_at'])
    .where('member_id', '=', memberId)
    .orderBy('detected_at')
    .orderBy('post_id')
    .orderBy('kind')
    .execute();
}
