import type { AdminAuditQuery, AdminAuditResponse, AuditEntryView } from '@manaboard/contract/admin';
import type { Db } from '../../db/schema';
import { BadRequestError } from '../../lib/errors';
import { findAuditEntries, type AuditRow } from './audit-query.repository';
import { toCsv } from './csv';

/** The most rows one CSV export carries (newest first); narrow the filters for older ones. */
export const AUDIT_CSV_MAX_ROWS = 10_000;

function toView(row: AuditRow): AuditEntryView {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    subject: row.subject,
    details: row.details,
  };
}

function checkRange(query: Pick<AdminAuditQuery, 'from' | 'to'>): void {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw new BadRequestError('from must not be after to');
  }
}

/** One page of the audit log, newest first; `nextCursor` continues it. */
export async function auditPage(db: Db, query: AdminAuditQuery): Promise<AdminAuditResponse> {
  checkRange(query);
  const { cursor, limit, ...filters } = query;
  // One more than asked tells whether another page exists without counting.
  const rows = await findAuditEntries(db, filters, {
    ...(cursor ? { beforeId: cursor } : {}),
    limit: limit + 1,
  });
  const entries = rows.slice(0, limit).map(toView);
  const last = entries.at(-1);
  return { success: true, entries, nextCursor: rows.length > limit && last ? last.id : null };
}

/** The filtered log as CSV (at most AUDIT_CSV_MAX_ROWS, newest first): when, who, what, subject, details. */
export async function auditCsv(db: Db, query: AdminAuditQuery): Promise<string> {
  checkRange(query);
  const { cursor, limit: _limit, ...filters } = query;
  const rows = await findAuditEntries(db, filters, {
    ...(cursor ? { beforeId: cursor } : {}),
    limit: AUDIT_CSV_MAX_ROWS,
  });
  const header = ['id', 'at', 'actor', 'action', 'subject', 'details'];
  return toCsv([
    header,
    ...rows.map((row) => [
      String(row.id),
      row.at.toISOString(),
      row.actor,
      row.action,
      row.subject ?? '',
      JSON.stringify(row.details),
    ]),
  ]);
}
