import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

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
