import { queryOptions } from '@tanstack/react-query';
import {
  adminAnnouncementResponseSchema,
  adminAnnouncementsResponseSchema,
  adminOkResponseSchema,
  type AdminAnnouncementAction,
  type AdminAnnouncementCreate,
  type AdminAnnouncementEdit,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

export const adminAnnouncementKeys = { all: ['admin', 'announcements'] as const };

export const adminAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: adminAnnouncementKeys.all,
    queryFn: ({ signal }) =>
      adminRequest('/api/admin/announcements', { schema: adminAnnouncementsResponseSchema, signal }),
  });

export const createAnnouncement = (body: AdminAnnouncementCreate) =>
  adminRequest('/api/admin/announcements', { method: 'POST', body, schema: adminAnnouncementResponseSchema });

export const editAnnouncement = (id: string, body: AdminAnnouncementEdit) =>
  adminRequest(`/api/admin/announcements/${id}`, {
    method: 'PUT',
    body,
    schema: adminAnnouncementResponseSchema,
  });

export const announcementAction = (id: string, action: AdminAnnouncementAction) =>
  adminRequest(`/api/admin/announcements/${id}/${action}`, {
    method: 'POST',
    schema: adminAnnouncementResponseSchema,
  });

export const deleteDraft = (id: string) =>
  adminRequest(`/api/admin/announcements/${id}`, { method: 'DELETE', schema: adminOkResponseSchema });
