import { sql, type Selectable } from 'kysely';
import type { InteractionsTable, Db } from '../../db/schema';

export type InteractionRow = Selectable<InteractionsTable>;
export type InteractionKind = InteractionRow['kind'];

/** Remembers posts of the official accounts (insert-or-ignore by id). */
export async function upsertOfficialPosts(
  db: Db,
  posts: ReadonlyArray<{ id: string; authorId: string; createdAt: Date }>,
): Promise<void> {
  if (posts.length === 0) return;
  await db
    .insertInto('official_posts')
    .values(posts.map((p) => ({ id: p.id, author_id: p.authorId, created_at: p.createdAt })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Official posts younger than `since`, newest first: the ones whose engagement is watched. */
export async function watchedOfficialPosts(
  db: Db,
  since: Date,
): Promise<Array<{ id: string; createdAt: Date }>> {
  const rows = await db
    .selectFrom('official_posts')
    .select(['id', 'created_at'])
    .where('created_at', '>=', since)
    .where('deleted', '=', false)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at }));
}

/** Linked members (a browser bound, not disqualified) among the given network user ids. */
export async function linkedMemberIds(db: Db, networkUserIds: readonly string[]): Promise<Set<string>> {
  if (networkUserIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('accounts')
    .select('network_user_id')
    .where('network_user_id', 'in', [...new Set(networkUserIds)])
    .where('disqualified', '=', false)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('browser_links').select('browser_hash').whereRef('account_id', '=', 'accounts.id'),
      ),
    )
    .execute();
  return new Set(rows.map((r) => r.network_user_id));
}

/** Linked members who granted reading their likes (scope like.read). */
export async function membersSharingLikes(
  db: Db,
): Promise<Array<{ accountId: string; networkUserId: string }>> {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'network_user_id'])
    .where('disqualified', '=', false)
    .where('access_token', 'is not', null)
    .where(sql<string>`' ' || scopes || ' '`, 'like', '% like.read %')
    .where((eb) =>
      eb.exists(
        eb.selectFrom('browser_links').select('browser_hash').whereRef('account_id', '=', 'accounts.id'),
      ),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ accountId: r.id, networkUserId: r.network_user_id }));
}

/** Whether any member is linked at all (no member, no interaction calls to the network). */
export async function anyLinkedMember(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('disqualified', '=', false)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('browser_links').select('browser_hash').whereRef('account_id', '=', 'accounts.id'),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export type NewInteraction = {
  memberId: string;
  postId: string;
  kind: InteractionKind;
  reward: number;
  detectedAt: Date;
  checkAfter: Date;
  settleBy: Date;
  /** The member's record behind the line and its CID, where the network names one (a stream's like, reply…). */
  recordId?: string | null;
  recordCid?: string | null;
};

/** Pending lines, unique per member × post × kind: seeing the same interaction again changes nothing. */
export async function insertInteractions(db: Db, lines: readonly NewInteraction[]): Promise<number> {
  if (lines.length === 0) return 0;
  const result = await db
    .insertInto('interactions')
    .values(
      lines.map((l) => ({
        member_id: l.memberId,
        post_id: l.postId,
        kind: l.kind,
        reward: l.reward,
        detected_at: l.detectedAt,
        check_after: l.checkAfter,
        settle_by: l.settleBy,
        settled_at: null,
        record_id: l.recordId ?? null,
        record_cid: l.recordCid ?? null,
      })),
    )
    .onConflict((oc) => oc.columns(['member_id', 'post_id', 'kind']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Pending lines due for their re-check. */
export async function dueInteractions(db: Db, now: Date, limit: number): Promise<InteractionRow[]> {
  return db
    .selectFrom('interactions')
    .selectAll()
    .where('status', '=', 'pending')
    .where('check_after', '<=', now)
    .orderBy('check_after')
    .limit(limit)
    .execute();
}

/** Settles a pending line (credited or void); a line settles once. */
export async function settleInteraction(
  db: Db,
  key: { memberId: string; postId: string; kind: InteractionKind },
  outcome: { status: 'credited' | 'void'; at: Date; note: string | null },
): Promise<void> {
  await db
    .updateTable('interactions')
    .set({ status: outcome.status, settled_at: outcome.at, note: outcome.note })
    .where('member_id', '=', key.memberId)
    .where('post_id', '=', key.postId)
    .where('kind', '=', key.kind)
    .where('status', '=', 'pending')
    .execute();
}

/** Marks an official post deleted (its pending lines are voided by the settle job). */
export async function markOfficialPostDeleted(db: Db, id: string): Promise<void> {
  await db.updateTable('official_posts').set({ deleted: true }).where('id', '=', id).execute();
}

/** Credited interaction lines of the given members, in the week they settled. */
export async function interactionLines(
  db: Db,
  memberIds: readonly string[],
): Promise<Array<{ authorId: string; mana: number; at: Date; postId: string; kind: InteractionKind }>> {
  if (memberIds.length === 0) return [];
  const rows = await db
    .selectFrom('interactions')
    .select(['member_id', 'reward', 'settled_at', 'post_id', 'kind'])
    .where('member_id', 'in', memberIds)
    .where('status', '=', 'credited')
    .where('settled_at', 'is not', null)
    .execute();
  return rows.map((r) => ({
    authorId: r.member_id,
    mana: r.reward,
    at: r.settled_at ?? new Date(0),
    postId: r.post_id,
    kind: r.kind,
  }));
}

/** Gives members with credited interactions an author row (so they can rank) and flags them for totals. */
export async function ensureInteractionAuthors(
  db: Db,
  memberIds: readonly string[],
  now: Date,
): Promise<void> {
  if (memberIds.length === 0) return;
  await sql`
    insert into authors (id, handle, display_name, avatar_url, first_tracked_at, totals_dirty, updated_at)
    select ac.network_user_id, ac.handle, ac.handle, ac.avatar_url, ${now}, true, ${now}
    from accounts ac where ac.network_user_id in (${sql.join([...new Set(memberIds)])})
    on conflict (id) do update set totals_dirty = true
  `.execute(db);
}
