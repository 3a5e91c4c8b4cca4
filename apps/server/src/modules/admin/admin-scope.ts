import type { FastifyPluginAsync } from 'fastify';
import {
  adminEmptyBodySchema,
  adminOkResponseSchema,
  adminSessionResponseSchema,
} from '@manaboard/contract/admin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noStore } from '../../http/referral-replies';
import type { RateLimits } from '../../http/rate-limits';
import type { CsrfTokens } from '../identity/csrf';
import { clearedSessionCookie } from './admin-cookies';
import { adminCsrfSubject, adminGuard, adminOf } from './admin-guard';
import type { AdminSection, AdminSectionOptions } from './admin-section-options';
import { signOut } from './admin-session.service';

export type AdminScopeOptions = AdminSectionOptions & {
  csrf: CsrfTokens;
  limits: RateLimits;
  sections: readonly AdminSection[];
};

const reads = new Set(['GET', 'HEAD']);

/**
 * `/api/admin/*`: every route registered here or by a section is rate limited and runs the guard (adminGuard)
 * (reads on the read budget, writes on the write budget), before anything else; answers are never cached. Register with
 * `{ prefix: '/api/admin' }`.
 */
export const adminScope: FastifyPluginAsync<AdminScopeOptions> = async (scope, options) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, config, now } = options;
  const sectionOptions = {
    db,
    config,
    now,
    postUrl: options.postUrl,
    describeQuery: options.describeQuery,
    officialHandles: options.officialHandles,
    schedule: options.schedule,
    usage: options.usage,
    databaseKind: options.databaseKind,
    publishesLedger: options.publishesLedger,
    afterManaChange: options.afterManaChange,
  };
  app.decorateRequest('admin', null);
  const readLimit = options.limits('read');
  const writeLimit = options.limits('write');
  const guard = adminGuard({ db, admin: config.admin, csrf: options.csrf, now });
  // onRequest, before any body is parsed or validated: a caller who may not be here learns nothing else (no
  // 400 about a body they were never allowed to send).
  app.addHook('onRequest', async (request, reply) => {
    const limit = reads.has(request.method) ? readLimit : writeLimit;
    await limit.call(app, request, reply);
    if (reply.sent) return reply;
    await guard(request);
  });
  noStore(app);

  app.get('/session', { schema: { response: { 200: adminSessionResponseSchema } } }, async (request) => {
    const admin = adminOf(request);
    return {
      success: true as const,
      admin: { handle: admin.handle, networkUserId: admin.networkUserId },
      csrfToken: options.csrf.issue(adminCsrfSubject(admin)).token,
      expiresAt: admin.expiresAt.toISOString(),
      idleTimeoutSeconds: Math.round(config.admin.sessionIdleMs / 1000),
    };
  });

  app.post(
    '/sign-out',
    {
      config: { adminSessionOnly: true },
      schema: { body: adminEmptyBodySchema, response: { 200: adminOkResponseSchema } },
    },
    async (request, reply) => {
      await signOut(db, adminOf(request));
      void reply.header('Set-Cookie', clearedSessionCookie(config.publicOrigin));
      return { success: true as const };
    },
  );

  for (const section of options.sections) await app.register(section, sectionOptions);
};
