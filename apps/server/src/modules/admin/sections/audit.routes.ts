import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditQuerySchema, adminAuditResponseSchema } from '@manaboard/contract/admin';
import { auditCsv, auditPage } from '../../audit/audit.service';
import type { AdminSectionOptions } from '../admin-section-options';

/** Section 5, the audit log: `GET /api/admin/audit` (filtered, paged by cursor) and its CSV export. */
export const adminAuditRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, { db }) => {
  app.get(
    '/audit',
    { schema: { querystring: adminAuditQuerySchema, response: { 200: adminAuditResponseSchema } } },
    async (request) => auditPage(db, request.query),
  );

  app.get('/audit.csv', { schema: { querystring: adminAuditQuerySchema } }, async (request, reply) => {
    const csv = await auditCsv(db, request.query);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="manaboard-audit-${day}.csv"`)
      .header('X-Content-Type-Options', 'nosniff')
      .send(csv);
  });
};
