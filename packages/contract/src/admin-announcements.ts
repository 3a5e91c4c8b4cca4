import * as z from 'zod/mini';
import { announcementInputSchema, announcementSchema } from './announcements';

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

export const adminAnnouncementParamsSchema = z.strictObject({ id: z.uuid({ error: 'id must be a UUID' }) });
export const adminAnnouncementActionParamsSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a UUID' }),
  action: adminAnnouncementActionSchema,
});

/** One announcement after a write. */
export const adminAnnouncementResponseSchema = z.object({
  success: z.literal(true),
  announcement: announcementSchema,
});
