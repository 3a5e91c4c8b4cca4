import { queryOptions } from '@tanstack/react-query';
import {
  adminLedgerCheckResponseSchema,
  adminLedgerCorrectionResponseSchema,
  adminLedgerResponseSchema,
  type AdminLedgerCorrectionRequest,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

/** Query keys: the weeks list; a correction refreshes it. */
export const ledgerKeys = { all: ['admin', 'ledger'] as const };

/** `GET /api/admin/ledger`: every week, each closed one with its editions and their publication. */
export const ledgerQueryOptions = () =>
  queryOptions({
    queryKey: ledgerKeys.all,
    queryFn: ({ signal }) => adminRequest('/api/admin/ledger', { schema: adminLedgerResponseSchema, signal }),
  });

/** `POST /api/admin/ledger/check`: a closed week's newest edition against the data now. */
export const checkLedgerWeek = (week: string) =>
  adminRequest('/api/admin/ledger/check', {
    method: 'POST',
    body: { week },
    schema: adminLedgerCheckResponseSchema,
  });

/** `POST /api/admin/ledger/correct`: the next edition of a week whose figures changed (audited). */
export const correctLedgerWeek = (body: AdminLedgerCorrectionRequest) =>
  adminRequest('/api/admin/ledger/correct', {
    method: 'POST',
    body,
    schema: adminLedgerCorrectionResponseSchema,
  });
