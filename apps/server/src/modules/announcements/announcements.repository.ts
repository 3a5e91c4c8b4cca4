import type { Selectable } from 'kysely';
import type { AnnouncementsTable, Db } from '../../db/schema';

export type AnnouncementRow = Selectable<AnnouncementsTable>;

/** One page of published announcements, newest first, and how many are published in all. */
export async function findPublishedPage(
  db: Db,
  page: number,
  limit: number,
): Promise<{ rows: AnnouncementRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('announcements')
      .selectAll()
      .where('status', '=', 'published')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('announcements')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('status', '=', 'published')
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Every announcement, whatever its status, newest first (operators' view). */
export function findAll(db: Db): Promise<AnnouncementRow[]> {
  return db.selectFrom('announcements').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
}

/** How many announcements exist, whatever their status. */
export async function countAll(db: Db): Promise<number> {
  const row = await db
    .selectFrom('announcements')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function findById(db: Db, id: string): Promise<AnnouncementRow | undefined> {
  return db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
}

export type NewAnnouncementRow = {
  id: string;
  title: string;
  content: string;
  url: string | null;
  status: AnnouncementRow['status'];
  createdAt?: Date;
  publishedAt: Date | null;
};

/** Inserts an announcement; an existing id is left untouched (so demo seeding can run twice). */
export async function insertAnnouncement(db: Db, row: NewAnnouncementRow): Promise<boolean> {
  const result = await db
    .insertInto('announcements')
    .values({
      id: row.id,
      title: row.title,
      content: row.content,
      url: row.url,
      status: row.status,
      published_at: row.publishedAt,
      ...(row.createdAt ? { created_at: row.createdAt } : {}),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Sets the status; publishing stamps published_at the first time. Returns the updated row. */
export function updateStatus(
  db: Db,
  id: string,
  status: AnnouncementRow['status'],
  now: Date,
): Promise<AnnouncementRow | undefined> {
  return db
    .updateTable('announcements')
    .set((eb) => ({
      status,
      updated_at: now,
      published_at:
        status === 'published' ? eb.fn.coalesce('published_at', eb.val(now)) : eb.ref('published_at'),
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Replaces the editable text of an announcement. Returns the updated row. */
export function updateContent(
  db: Db,
  id: string,
  content: { title: string; content: string; url: string | null },
  now: Date,
): Promise<AnnouncementRow | undefined> {
  return db
    .updateTable('announcements')
    .set({ title: content.title, content: content.content, url: content.url, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Locks one announcement for the rest of the transaction (so a check and the change it allows agree). */
export function lockById(db: Db, id: string): Promise<AnnouncementRow | undefined> {
  return db.selectFrom('announcements').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Deletes an announcement only while it is a draft; true when it was deleted. */
export async function deleteDraft(db: Db, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('announcements')
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
