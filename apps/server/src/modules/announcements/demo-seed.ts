import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { announcementStatusSchema } from '@manaboard/contract';
import { announcementInputSchema } from '@manaboard/contract/admin';
import { paths } from '../../config/config';
import type { Database } from '../../db/schema';
import { countAll, insertAnnouncement } from './announcements.repository';
import { DAY_MS } from '../../lib/time';

const demoFileSchema = z.object({
  announcements: z.array(
    z.object({
      ...announcementInputSchema.shape,
      id: z.uuid(),
      status: announcementStatusSchema,
      daysAgo: z.number().int().min(0),
    }),
  ),
});

export const demoAnnouncementsFile = path.join(paths.repoRoot, 'apps/server/content/demo/announcements.json');

/**
 * Writes the demo announcements (three published, one draft). Ids are fixed, so running it twice adds nothing.
 * Returns how many were new.
 */
export async function seedDemoAnnouncements(db: Kysely<Database>, now = new Date()): Promise<number> {
  return (await seedDemoAnnouncementsDetailed(db, now)).added;
}

/** As seedDemoAnnouncements, also telling how many the demo file holds. */
export async function seedDemoAnnouncementsDetailed(
  db: Kysely<Database>,
  now = new Date(),
): Promise<{ added: number; total: number }> {
  const file = demoFileSchema.parse(JSON.parse(await fs.readFile(demoAnnouncementsFile, 'utf8')));
  let inserted = 0;
  for (const entry of file.announcements) {
    const at = new Date(now.getTime() - entry.daysAgo * DAY_MS);
    const added = await insertAnnouncement(db, {
      id: entry.id,
      title: entry.title,
      content: entry.content,
      url: entry.url ?? null,
      status: entry.status,
      createdAt: at,
      publishedAt: entry.status === 'published' ? at : null,
    });
    if (added) inserted++;
  }
  return { added: inserted, total: file.announcements.length };
}

/**
 * The demo content of a first start: written only when the database holds no announcement at all, so a
 * database first migrated by `npm run db:migrate` or the CLI still gets it, and an operator's own content is
 * never mixed with the demo's. Returns how many were added.
 */
export async function seedDemoIfEmpty(db: Kysely<Database>, now = new Date()): Promise<number> {
  if ((await countAll(db)) > 0) return 0;
  return seedDemoAnnouncements(db, now);
}
