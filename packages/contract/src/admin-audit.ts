import * as z from 'zod/mini';
import { checked } from './checked';

/* @__NO_SIDE_EFFECTS__ */
const filterText = (name: string) =>
  z.optional(
    checked(
      z.string(),
      z.trim(),
      z.minLength(1, `${name} must not be empty`),
      z.maxLength(200, `${name} is too long`),
    ),
  );

/**
 * Filters of `GET /api/admin/audit` and `GET /api/admin/audit.csv`: `actor` matches part of who (handle or id,
 * any case), `action` an action or its family (`announcement` matches `announcement.publish`), `subject` exactly,
 * `from`/`to` an instant range (inclusive, ISO 8601). `cursor` continues a page (from `nextCursor`).
 */
export const adminAuditQuerySchema = z.strictObject({
  actor: filterText('actor'),
  action: filterText('action'),
  subject: filterText('subject'),
  from: z.optional(z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 date-time' })),
  to: z.optional(z.iso.datetime({ offset: true, error: 'to must be an ISO 8601 date-time' })),
  cursor: z.optional(checked(z.string(), z.regex(/^\d{1,19}$/, 'cursor is not one this server gave'))),
  limit: z._default(
    checked(
      z.coerce.number({ error: 'limit must be a whole number' }),
      z.int({ error: 'limit must be a whole number' }),
      z.gte(1, { error: 'limit must be at least 1' }),
      z.lte(200, { error: 'limit must be at most 200' }),
    ),
    50,
  ),
});
export type AdminAuditQuery = z.infer<typeof adminAuditQuerySchema>;
export type AdminAuditFilters = Omit<AdminAuditQuery, 'cursor' | 'limit'>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime({ offset: true }),
  actor: z.string(),
  action: z.string(),
  subject: z.nullable(z.string()),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

/** A page of entries, newest first; `nextCursor` is null on the last page. */
export const adminAuditResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(auditEntrySchema),
  nextCursor: z.nullable(z.string()),
});
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>;
