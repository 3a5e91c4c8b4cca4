import { lazy } from 'react';
import type { AdminSectionEntry } from '../features/admin-core/components/admin-shell';

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
];
