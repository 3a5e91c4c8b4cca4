import { infiniteQueryOptions } from '@tanstack/react-query';
import { adminAuditResponseSchema } from '@manaboard/contract/admin';
import { saveBlob, attachmentName } from '../../../lib/save-file';
import { adminRequest, adminUrl, failureOf } from '../../../lib/admin-api';

/** The filters as typed: dates are whole UTC days (YYYY-MM-DD). */
export type AuditFilters = { actor: string; action: string; subject: string; from: string; to: string };
export const noFilters: AuditFilters = { actor: '', action: '', subject: '', from: '', to: '' };

/** The query the server takes: empty fields left out, days turned into the instants that bound them. */
export function auditQuery(filters: AuditFilters): Record<string, string | undefined> {
  return {
    actor: filters.actor.trim() || undefined,
    action: filters.action.trim() || undefined,
    subject: filters.subject.trim() || undefined,
    from: filters.from ? `${filters.from}T00:00:00.000Z` : undefined,
    to: filters.to ? `${filters.to}T23:59:59.999Z` : undefined,
  };
}

export const PAGE_SIZE = 25;

export const auditQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', filters] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      adminRequest('/api/admin/audit', {
        query: { ...auditQuery(filters), limit: String(PAGE_SIZE), cursor: pageParam },
        schema: adminAuditResponseSchema,
        signal,
      }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** Fetches the CSV export for the filters and hands it to the browser as a download. */
export async function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const response = await fetch(adminUrl('/api/admin/audit.csv', auditQuery(filters)), {
    credentials: 'same-origin',
  });
  if (!response.ok) throw await failureOf(response);
  saveBlob(await response.blob(), attachmentName(response, 'audit.csv'));
}
