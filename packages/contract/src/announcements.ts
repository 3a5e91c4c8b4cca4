import * as z from 'zod/mini';
import { checked } from './checked';

export const announcementStatusSchema = z.enum(['draft', 'published', 'archived']);
export type AnnouncementStatus = z.infer<typeof announcementStatusSchema>;

/** One entry of What's New (SPEC §3). `url` is the Learn More target when the operator gave one. */
export const announcementSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  status: announcementStatusSchema,
  url: z.optional(z.url()),
});
export type Announcement = z.infer<typeof announcementSchema>;

/* @__NO_SIDE_EFFECTS__ */
const positiveInt = (name: string, max?: number) => {
  const number = z.coerce.number({ error: `${name} must be a whole number` });
  const whole = z.int({ error: `${name} must be a whole number` });
  const atLeastOne = z.gte(1, { error: `${name} must be at least 1` });
  // No spread of a checks array: a bundler counts that as a side effect and would keep unused schemas.
  return max === undefined
    ? checked(number, whole, atLeastOne)
    : checked(number, whole, atLeastOne, z.lte(max, { error: `${name} must be at most ${max}` }));
};

/** Query of `GET /api/public/announcements`: `page ≥ 1`, `1 ≤ limit ≤ 100`. */
export const announcementsQuerySchema = z.strictObject({
  page: z._default(positiveInt('page'), 1),
  limit: z._default(positiveInt('limit', 100), 50),
});
export type AnnouncementsQuery = z.infer<typeof announcementsQuerySchema>;

/** `GET /api/public/announcements` → published announcements, newest first. */
export const announcementsResponseSchema = z.object({
  success: z.literal(true),
  announcements: z.array(announcementSchema),
  page: checked(z.number(), z.int()),
  limit: checked(z.number(), z.int()),
  total: checked(z.number(), z.int()),
});
export type AnnouncementsResponse = z.infer<typeof announcementsResponseSchema>;
