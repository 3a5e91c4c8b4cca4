import { queryOptions } from '@tanstack/react-query';
import { adminRewardsExportResponseSchema } from '@manaboard/contract/admin';
import { adminRequest, adminUrl, failureOf } from '../../../lib/admin-api';
import { ApiError, UNEXPECTED_RESPONSE_MESSAGE } from '../../../lib/api-error';
import { attachmentName, saveBlob } from '../../../lib/save-file';

/** `all`, or an ISO week such as `2026-W47`. */
export type ExportPeriod = string;

export const exportKeys = { period: (period: ExportPeriod) => ['admin', 'export', period] as const };

/** `GET /api/admin/export?period=`: the leaderboard of the period with its credited referrals. */
export const rewardsExportQueryOptions = (period: ExportPeriod) =>
  queryOptions({
    queryKey: exportKeys.period(period),
    queryFn: ({ signal }) =>
      adminRequest('/api/admin/export', {
        query: { period },
        schema: adminRewardsExportResponseSchema,
        signal,
      }),
  });

/**
 * Fetches the period's export through the session cookie and hands it to the browser as a file: the CSV the
 * server writes (formula-safe), or the JSON export itself (validated, without the envelope).
 */
export async function downloadRewards(period: ExportPeriod, format: 'csv' | 'json'): Promise<void> {
  const path = format === 'csv' ? '/api/admin/export.csv' : '/api/admin/export';
  const response = await fetch(adminUrl(path, { period, format }), { credentials: 'same-origin' });
  if (!response.ok) throw await failureOf(response);
  if (format === 'csv') {
    saveBlob(await response.blob(), attachmentName(response, `manaboard-rewards-${period}.csv`));
    return;
  }
  const parsed = adminRewardsExportResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError(UNEXPECTED_RESPONSE_MESSAGE, response.status);
  saveBlob(
    new Blob([JSON.stringify(parsed.data.data, null, 2)], { type: 'application/json' }),
    `manaboard-rewards-${period}.json`,
  );
}
