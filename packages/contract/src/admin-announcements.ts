import * as z from 'zod/mini';
import { announcementSchema } from './announcements';
import { checked } from './checked';

/** Operator input for a new announcement (the console and `npm run mana -- announcements`). */
export const announcementInputSchema = z.object({
  title: checked(
    z.string({ error: 'title is required' }),
    z.trim(),
    z.minLength(1, 'title is required'),
    z.maxLength(200, 'title must be at most 200 characters'),
  ),
  content: checked(
    z.string({ error: 'content is required' }),
    z.trim(),
    z.minLength(1, 'content is required'),
    z.maxLength(5000, 'content must be at most 5000 characters'),
  ),
  url: z.optional(z.url({ protocol: /^https?$/, error: 'url must be an http(s) address' })),
});
export type AnnouncementInput = z.infer<typeof announcementInputSchema>;

/** `GET /api/admin/announcements` → every announcement, whatever its status, newest first. */
export const adminAnnouncementsResponseSchema = z.object({
  success: z.literal(true),
  announcements: z.array(announcementSchema),
});

/** The operator's input, strict (unknown fields refused), plus `extra`; pure, so bundles drop it when unused. */
/* @__NO_SIDE_EFFECTS__ */
function strictInput<T extends Record<string, z.ZodMiniType>>(extra: T) {
  return z.strictObject({ ...announcementInputSchema.shape, ...extra });
}

/** `POST /api/admin/announcements`: a new draft (or published at once with `publish: true`). */
export const adminAnnouncementCreateSchema = strictInput({ publish: z.optional(z.boolean()) });
export type AdminAnnouncementCreate = z.input<typeof adminAnnouncementCreateSchema>;

/**
 * `PUT /api/admin/announcements/:id`: the whole editable text (title, content, optional Learn More url; an absent
 * url removes it). The status changes only through the actions below.
 */
export const adminAnnouncementEditSchema = strictInput({});
export type AdminAnnouncementEdit = z.input<typeof adminAnnouncementEditSchema>;

/** `POST /api/admin/announcements/:id/:action`. */
export const adminAnnouncementActions = ['publish', 'unpublish', 'archive'] as const;
export const adminAnnouncementActionSchema = z.enum(adminAnnouncementActions);
export type AdminAnnouncementAction = z.infer<typeof adminAnnouncementActionSchema>;

/** One announcement after a write. */
export const adminAnnouncementResponseSchema = z.object({
  success: z.literal(true),
  announcement: announcementSchema,
});
