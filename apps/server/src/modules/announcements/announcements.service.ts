import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Announcement, AnnouncementsQuery, AnnouncementsResponse } from '@manaboard/contract';
import type { AnnouncementInput } from '@manaboard/contract/admin';
import type { Database } from '../../db/schema';
import { AppError, NotFoundError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.repository';
import * as repo from './announcements.repository';

/**
 * The public shape of an announcement. Its date is when it was published (what readers care about), or when it
 * was written for entries never published.
 */
export function toAnnouncement(row: repo.AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    createdAt: (row.published_at ?? row.created_at).toISOString(),
    status: row.status,
    ...(row.url ? { url: row.url } : {}),
  };
}

/** Published announcements for What's New, newest first. */
export async function listPublished(
  db: Kysely<Database>,
  query: AnnouncementsQuery,
): Promise<AnnouncementsResponse> {
  const { rows, total } = await repo.findPublishedPage(db, query.page, query.limit);
  return {
    success: true,
    announcements: rows.map(toAnnouncement),
    page: query.page,
    limit: query.limit,
    total,
  };
}

/** Every announcement, for operators. */
export async function listAll(db: Kysely<Database>): Promise<Announcement[]> {
  return (await repo.findAll(db)).map(toAnnouncement);
}

/** Writes a new announcement as a draft, or published at once; audited. */
export async function createAnnouncement(
  db: Kysely<Database>,
  input: AnnouncementInput,
  options: { actor: string; publish: boolean; now?: Date },
): Promise<Announcement> {
  const now = options.now ?? new Date();
  const id = randomUUID();
  return db.transaction().execute(async (trx) => {
    await repo.insertAnnouncement(trx, {
      id,
      title: input.title,
      content: input.content,
      url: input.url ?? null,
      status: options.publish ? 'published' : 'draft',
      createdAt: now,
      publishedAt: options.publish ? now : null,
    });
    const row = await repo.findById(trx, id);
    if (!row) throw new Error('announcement vanished inside its own transaction');
    const created = toAnnouncement(row);
    await recordAudit(trx, {
      actor: options.actor,
      action: options.publish ? 'announcement.publish' : 'announcement.create',
      subject: id,
      details: { title: input.title, before: null, after: created },
    });
    return created;
  });
}

/** Publishes or archives an announcement; audited. Unknown ids are a NotFoundError. */
export async function setAnnouncementStatus(
  db: Kysely<Database>,
  id: string,
  status: 'published' | 'archived' | 'draft',
  options: { actor: string; now?: Date },
): Promise<Announcement> {
  return db.transaction().execute(async (trx) => {
    const before = await repo.lockById(trx, id);
    if (!before) throw new NotFoundError(`No announcement with id ${id}`);
    const row = await repo.updateStatus(trx, id, status, options.now ?? new Date());
    if (!row) throw new NotFoundError(`No announcement with id ${id}`);
    const after = toAnnouncement(row);
    await recordAudit(trx, {
      actor: options.actor,
      action: `announcement.${status}`,
      subject: id,
      details: { before: toAnnouncement(before), after },
    });
    return after;
  });
}

/** Rewrites an announcement's title, text and Learn More link (any status; a published one changes in place); audited. */
export async function editAnnouncement(
  db: Kysely<Database>,
  id: string,
  input: AnnouncementInput,
  options: { actor: string; now?: Date },
): Promise<Announcement> {
  return db.transaction().execute(async (trx) => {
    const before = await repo.lockById(trx, id);
    if (!before) throw new NotFoundError(`No announcement with id ${id}`);
    const content = { title: input.title, content: input.content, url: input.url ?? null };
    const row = await repo.updateContent(trx, id, content, options.now ?? new Date());
    if (!row) throw new NotFoundError(`No announcement with id ${id}`);
    const after = toAnnouncement(row);
    await recordAudit(trx, {
      actor: options.actor,
      action: 'announcement.edit',
      subject: id,
      details: { before: toAnnouncement(before), after },
    });
    return after;
  });
}

/**
 * Deletes a draft; audited with what it said. Only drafts: what readers saw stays on record (archive it instead),
 * so a published or archived one is a 409.
 */
export async function deleteDraftAnnouncement(
  db: Kysely<Database>,
  id: string,
  options: { actor: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await repo.lockById(trx, id);
    if (!before) throw new NotFoundError(`No announcement with id ${id}`);
    if (before.status !== 'draft' || !(await repo.deleteDraft(trx, id))) {
      throw new AppError(
        409,
        'CONFLICT',
        'Only drafts can be deleted; archive a published announcement instead.',
      );
    }
    await recordAudit(trx, {
      actor: options.actor,
      action: 'announcement.delete',
      subject: id,
      details: { before: toAnnouncement(before), after: null },
    });
  });
}
