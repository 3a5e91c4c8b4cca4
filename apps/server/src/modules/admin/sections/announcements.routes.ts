import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminAnnouncementActionParamsSchema,
  adminAnnouncementCreateSchema,
  adminAnnouncementEditSchema,
  adminAnnouncementParamsSchema,
  adminAnnouncementResponseSchema,
  adminAnnouncementsResponseSchema,
  adminEmptyBodySchema,
  adminOkResponseSchema,
} from '@manaboard/contract/admin';
import {
  createAnnouncement,
  deleteDraftAnnouncement,
  editAnnouncement,
  listAll,
  setAnnouncementStatus,
} from '../../announcements/announcements.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

const statusAfter = { publish: 'published', unpublish: 'draft', archive: 'archived' } as const;

/**
 * Section 1, announcements: the same service functions the `npm run announcements` command uses, each write
 * audited with the admin as actor.
 */
export const adminAnnouncementsRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, { db }) => {
  app.get(
    '/announcements',
    { schema: { response: { 200: adminAnnouncementsResponseSchema } } },
    async () => ({ success: true as const, announcements: await listAll(db) }),
  );

  app.post(
    '/announcements',
    { schema: { body: adminAnnouncementCreateSchema, response: { 200: adminAnnouncementResponseSchema } } },
    async (request) => {
      const { publish, ...input } = request.body;
      const announcement = await createAnnouncement(db, input, {
        actor: adminOf(request).actor,
        publish: publish === true,
      });
      return { success: true as const, announcement };
    },
  );

  app.put(
    '/announcements/:id',
    {
      schema: {
        params: adminAnnouncementParamsSchema,
        body: adminAnnouncementEditSchema,
        response: { 200: adminAnnouncementResponseSchema },
      },
    },
    async (request) => {
      const announcement = await editAnnouncement(db, request.params.id, request.body, {
        actor: adminOf(request).actor,
      });
      return { success: true as const, announcement };
    },
  );

  app.post(
    '/announcements/:id/:action',
    {
      schema: {
        params: adminAnnouncementActionParamsSchema,
        body: adminEmptyBodySchema,
        response: { 200: adminAnnouncementResponseSchema },
      },
    },
    async (request) => {
      const { id, action } = request.params;
      const announcement = await setAnnouncementStatus(db, id, statusAfter[action], {
        actor: adminOf(request).actor,
      });
      return { success: true as const, announcement };
    },
  );

  app.delete(
    '/announcements/:id',
    { schema: { params: adminAnnouncementParamsSchema, response: { 200: adminOkResponseSchema } } },
    async (request) => {
      await deleteDraftAnnouncement(db, request.params.id, { actor: adminOf(request).actor });
      return { success: true as const };
    },
  );
};
