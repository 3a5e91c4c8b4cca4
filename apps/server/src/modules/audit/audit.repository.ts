import type { Db } from '../../db/schema';

export type AuditEntry = {
  actor: string;
  action: string;
  subject: string | null;
  details?: Record<string, unknown>;
};

/** Appends one line to the audit log; call it in the same transaction as the change it records. */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
