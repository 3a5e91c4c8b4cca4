import * as z from 'zod/mini';
import { freeKeys } from './admin-json';

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime({ offset: true }),
  actor: z.string(),
  action: z.string(),
  subject: z.nullable(z.string()),
  details: freeKeys(z.unknown()),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

/** A page of entries, newest first; `nextCursor` is null on the last page. */
export const adminAuditResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(auditEntrySchema),
  nextCursor: z.nullable(z.string()),
});
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>;
