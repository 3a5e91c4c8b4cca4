import { sql } from 'kysely';
import type { Db } from '../../db/schema';

export type AuthorInput = {
  id: string;
  handle: string;
  displayName: string;
  avatarUrl: string | null;
  /** Creation time of the author's tracked post that made us see them. */
  firstTrackedAt: Date;
};

/**
 * Inserts authors or refreshes what can change at the network (handle, name, avatar); keeps the earliest first
 * tracked post (ties on the leaderboard break by it). Marks them for the totals job.
 *
 * Most authors of a search page are known, unchanged and already waiting for the totals job: one read by
 * primary key finds them, and only new, renamed, earlier-seen or not-yet-marked authors are written (a write
 * per row costs far more than the read; an unchanged row keeps its `updated_at`). The upsert below stays the
 * arbiter, so a row written in between is still merged correctly. The rows read stay locked until the caller's
 * transaction ends (lockAuthors).
 */
export async function upsertAuthors(db: Db, authors: readonly AuthorInput[], now: Date): Promise<void> {
  if (authors.length === 0) return;
  const byId = new Map<string, AuthorInput>();
  for (const a of authors) {
    const seen = byId.get(a.id);
    // The earliest post of the batch decides (the upsert keeps the least one too).
    if (!seen || a.firstTrackedAt < seen.firstTrackedAt) byId.set(a.id, a);
  }
  // Locked (in id order, as the totals job's recompute locks them): an author skipped below because it is already
  // flagged must stay flagged until this transaction's posts are stored, or a recompute running meanwhile would
  // clear the flag without having seen them.
  const known = await db
    .selectFrom('authors')
    .select(['id', 'handle', 'display_name', 'avatar_url', 'first_tracked_at', 'totals_dirty'])
    .where('id', 'in', [...byId.keys()])
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const row of known) {
    const a = byId.get(row.id);
    if (
      a &&
      row.totals_dirty &&
      row.handle === a.handle &&
      row.display_name === a.displayName &&
      row.avatar_url === a.avatarUrl &&
      row.first_tracked_at.getTime() <= a.firstTrackedAt.getTime()
    ) {
      byId.delete(row.id);
    }
  }
  const unique = [...byId.values()];
  if (unique.length === 0) return;
  await db
    .insertInto('authors')
    .values(
      unique.map((a) => ({
        id: a.id,
        handle: a.handle,
        display_name: a.displayName,
        avatar_url: a.avatarUrl,
        first_tracked_at: a.firstTrackedAt,
        totals_dirty: true,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        handle: eb.ref('excluded.handle'),
        display_name: eb.ref('excluded.display_name'),
        avatar_url: eb.ref('excluded.avatar_url'),
        first_tracked_at: sql<Date>`least(authors.first_tracked_at, excluded.first_tracked_at)`,
        totals_dirty: true,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/**
 * Refreshes handle, name and avatar of authors already known (a rename seen in a lookup); no insert. Returns
 * the authors that changed (their leaderboard rows must be served anew).
 */
export async function refreshAuthorProfiles(
  db: Db,
  profiles: ReadonlyArray<Omit<AuthorInput, 'firstTrackedAt'>>,
  now: Date,
): Promise<string[]> {
  const unique = [...new Map(profiles.map((p) => [p.id, p])).values()];
  if (unique.length === 0) return [];
  // The profiles as four arrays, one a column (four parameters, not four an author: issue 33); the ids on the
  // updated side too, so the planner (no statistics on PGlite) reads them by the primary key.
  const ids = unique.map((p) => p.id);
  const { rows: changed } = await sql<{ id: string }>`
    update authors set handle = v.handle, display_name = v.display_name, avatar_url = v.avatar_url,
      updated_at = ${now}
    from unnest(${ids}::text[], ${unique.map((p) => p.handle)}::text[], ${unique.map((p) => p.displayName)}::text[],
      ${unique.map((p) => p.avatarUrl)}::text[]) as v(id, handle, display_name, avatar_url)
    where authors.id = v.id and authors.id = any(${ids}::text[]) and (authors.handle <> v.handle or authors.display_name <> v.display_name
      or authors.avatar_url is distinct from v.avatar_url)
    returning authors.id
  `.execute(db);
  return changed.map((r) => r.id);
}

/** Flags authors whose posts changed, for the totals job. */
export async function markAuthorsDirty(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('authors')
    .set({ totals_dirty: true })
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** Flags every author (rules changed, or a full rebuild). */
export async function markAllAuthorsDirty(db: Db): Promise<void> {
  await db.updateTable('authors').set({ totals_dirty: true }).execute();
}

/** Up to `limit` authors waiting for the totals job. */
export async function dirtyAuthorIds(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('authors')
    .select('id')
    .where('totals_dirty', '=', true)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export type AuthorFacts = { id: string; firstTrackedAt: Date; disqualified: boolean; linkedAt: Date | null };

/**
 * Authors with what scoring needs: disqualification and, for members linked through at least one browser, the
 * moment of linking (the multiplier counts from then). Reads the linking module's accounts table.
 */
export async function authorFacts(db: Db, ids: readonly string[]): Promise<AuthorFacts[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('authors')
    .leftJoin('accounts', (join) =>
      join
        .onRef('accounts.network_user_id', '=', 'authors.id')
        .on((eb) =>
          eb.exists(
            eb.selectFrom('browser_links').select('browser_hash').whereRef('account_id', '=', 'accounts.id'),
          ),
        ),
    )
    .select([
      'authors.id',
      'authors.first_tracked_at',
      'authors.disqualified',
      'accounts.linked_at',
      'accounts.disqualified as account_disqualified',
    ])
    .where('authors.id', 'in', ids)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    firstTrackedAt: r.first_tracked_at,
    disqualified: r.disqualified || r.account_disqualified === true,
    linkedAt: r.linked_at ?? null,
  }));
}

/**
 * Locks the authors a recompute is about to read (first, in id order): whatever flags one of them meanwhile (a
 * stream batch storing a new post of theirs, an interaction credited) waits until the recompute commits, so
 * clearDirty never clears a flag set after the recompute read the author's posts.
 */
export async function lockAuthors(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.selectFrom('authors').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Clears the flag of authors whose totals were just written (same transaction). */
export async function clearDirty(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('authors').set({ totals_dirty: false }).where('id', 'in', ids).execute();
}
