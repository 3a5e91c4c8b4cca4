import type { AdminAuditFilters } from '@manaboard/contract/admin';
import type { Db } from '../../db/schema';

export type AuditRow = {
  id: string;
  at: Date;
  actor: string;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
};

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Entries matching the filters, newest first (id order: ids grow with time), at most `limit`, older than the
 * entry `beforeId` when given (the cursor).
 */
export function findAuditEntries(
  db: Db,
  filters: AdminAuditFilters,
  page: { beforeId?: string; limit: number },
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').select(['id', 'at', 'actor', 'action', 'subject', 'details']);
  if (filters.actor) query = query.where('actor', 'ilike', `%${likeLiteral(filters.actor)}%`);
  if (filters.action) {
    const action = filters.action;
    query = query.where((eb) =>
      eb.or([eb('action', '=', action), eb('action', 'like', `${likeLiteral(action)}.%`)]),
    );
  }
  if (filters.subject) query = query.where('subject', '=', filters.subject);
  if (filters.from) query = query.where('at', '>=', new Date(filters.from));
  if (filters.to) query = query.where('at', '<=', new Date(filters.to));
  if (page.beforeId) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}
