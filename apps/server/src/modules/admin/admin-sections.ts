import type { AdminSection } from './admin-section-options';
import { adminAnnouncementsRoutes } from './sections/announcements.routes';
import { adminAppealsRoutes } from './sections/appeals.routes';
import { adminAuditRoutes } from './sections/audit.routes';
import { adminFairnessRoutes } from './sections/fairness.routes';
import { adminExportRoutes } from './sections/export.routes';
import { adminLedgerRoutes } from './sections/ledger.routes';
import { adminMembersRoutes } from './sections/members.routes';
import { adminRulesRoutes } from './sections/rules.routes';
import { adminWorkerRoutes } from './sections/worker.routes';

/** The console's sections, in navigation order; a new section is one line here. */
export const adminSections: AdminSection[] = [
  adminAnnouncementsRoutes,
  adminRulesRoutes,
  adminMembersRoutes,
  adminAppealsRoutes,
  adminFairnessRoutes,
  adminWorkerRoutes,
  adminAuditRoutes,
  adminLedgerRoutes,
  adminExportRoutes,
];
