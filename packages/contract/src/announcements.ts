import { z } from 'zod';

export const announcementStatusSchema = z.enum(['draft', 'published', 'archived']);
export type AnnouncementStatus = z.infer<typeof announcementStatusSchema>;

/** One entry of What's New (SPEC §3). `url` is the Learn More target when the operator gave one. */
export const announcementSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  status: announcementStatusSchema,
  url: z.url().optional(),
});
export type Announcement = z.infer<typeof announcementSchema>;

const positiveInt = (name: string, max?: number) => {
  let schema = z.coerce
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `${name} must be at least 1` });
  if (max !== undefined) schema = schema.max(max, { error: `${name} must be at most ${max}` });
  return schema;
};

/** Query of `GET /api/public/announcements`: `page ≥ 1`, `1 ≤ limit ≤ 100`. */
export const announcementsQuerySchema = z
  .object({
    page: positiveInt('page').default(1),
    limit: positiveInt('limit', 100).default(50),
  })
  .strict();
export type AnnouncementsQuery = z.infer<typeof announcementsQuerySchema>;

/** `GET /api/public/announcements` → published announcements, newest first. */
export const announcementsResponseSchema = z.object({
  success: z.literal(true),
  announcements: z.array(announcementSchema),
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
});
export type AnnouncementsResponse = z.infer<typeof announcementsResponseSchema>;

/** Operator input for a new announcement (CLI today, console later). */
export const announcementInputSchema = z.object({
  title: z
    .string({ error: 'title is required' })
    .trim()
    .min(1, 'title is required')
    .max(200, 'title must be at most 200 characters'),
  content: z
    .string({ error: 'content is required' })
    .trim()
    .min(1, 'content is required')
    .max(5000, 'content must be at most 5000 characters'),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) address' }).optional(),
});
export type AnnouncementInput = z.infer<typeof announcementInputSchema>;
