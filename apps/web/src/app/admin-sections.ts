import { lazy } from 'react';
import type { AdminSectionEntry } from '../components/admin/admin-shell';

/**
 * The console's sections, in navigation order: one line each (path under /admin, name, lazily loaded screen).
 * Sections not built yet are simply not listed.
 */
export const adminSections: readonly AdminSectionEntry[] = [
  {
    path: 'announcements',
    label: 'Announcements',
    Component: lazy(() =>
      import('../features/admin-announcements/components/announcements-section').then((m) => ({
        default: m.AnnouncementsSection,
      })),
    ),
  },
  {
    path: 'rules',
    label: 'Programme rules',
    Component: lazy(() =>
      import('../features/admin-rules/components/rules-section').then((m) => ({ default: m.RulesSection })),
    ),
  },
  {
    path: 'members',
    label: 'Members',
    Component: lazy(() =>
      import('../features/admin-members/components/members-section').then((m) => ({
        default: m.MembersSection,
      })),
    ),
  },
  {
    path: 'appeals',
    label: 'Appeals',
    Component: lazy(() =>
      import('../features/admin-appeals/components/appeals-section').then((m) => ({
        default: m.AppealsSection,
      })),
    ),
  },
  {
    path: 'audit',
    label: 'Audit log',
    Component: lazy(() =>
      import('../features/admin-audit/components/audit-section').then((m) => ({ default: m.AuditSection })),
    ),
  },
  {
    path: 'fairness',
    label: 'Fairness signals',
    Component: lazy(() =>
      import('../features/admin-fairness/components/fairness-section').then((m) => ({
        default: m.FairnessSection,
      })),
    ),
  },
  {
    path: 'worker',
    label: 'Worker and network',
    Component: lazy(() =>
      import('../features/admin-worker/components/worker-section').then((m) => ({
        default: m.WorkerSection,
      })),
    ),
  },
  {
    path: 'ledger',
    label: 'Ledger',
    Component: lazy(() =>
      import('../features/admin-ledger/components/ledger-section').then((m) => ({
        default: m.LedgerSection,
      })),
    ),
  },
  {
    path: 'export',
    label: 'Rewards export',
    Component: lazy(() =>
      import('../features/admin-export/components/export-section').then((m) => ({
        default: m.ExportSection,
      })),
    ),
  },
];
