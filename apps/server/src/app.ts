import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from './config/config';
import type { DatabaseHandle } from './db/database';
import { registerErrorHandler } from './http/error-handler';
import { registerSecurity } from './http/security';
import { registerWebApp } from './http/web-app';
import { loggerOptions } from './logger';
import { demoWorld, mountSimulatedX } from './integrations/x/x-simulation';
import type { World } from '@manaboard/x-sim';
import { announcementsRoutes } from './modules/announcements/announcements.routes';
import { healthRoutes } from './modules/health/health.routes';
import { publicConfigRoutes } from './modules/public-config/public-config.routes';
import { CsrfTokens } from './modules/identity/csrf';
import { csrfGuard, identityRoutes } from './modules/identity/identity.routes';
import { loadOrCreateSecret } from './modules/identity/server-secrets.repository';

/** What the app is built from; tests pass their own database and log stream. */
export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  logStream?: DestinationStream;
  /** The simulated X's world when X is simulated (tests pass their own; default: the demo world). */
  simulatedWorld?: World;
  /** How long a served announcements page is reused (tests that write and read back use 0). */
  announcementsCacheMs?: number;
};

export const BODY_LIMIT_BYTES = 16 * 1024;

/** Builds the Fastify instance with every route; never listens (main.ts does, tests use inject). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Writes take JSON only: any other body (text/plain included) is a 415.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);

  await registerSecurity(app, config);

  const csrfSecret = config.csrfSecret
    ? Buffer.from(config.csrfSecret, 'utf8')
    : await loadOrCreateSecret(database.db, 'csrf');
  const csrf = new CsrfTokens(csrfSecret);
  // preHandler: after body parsing, so a 415/413 still answers first for a malformed write.
  app.addHook('preHandler', csrfGuard(csrf));
  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });

  await app.register(healthRoutes, { ping: database.ping });
  await app.register(identityRoutes, { csrf });
  await app.register(announcementsRoutes, {
    db: database.db,
    ...(deps.announcementsCacheMs !== undefined ? { cacheMs: deps.announcementsCacheMs } : {}),
  });
  await app.register(publicConfigRoutes, { simulated: config.x.mode === 'simulated' });
  if (config.x.mode === 'simulated') {
    // The demo's world follows the wall clock; a test's world keeps its own simulated time.
    await mountSimulatedX(app, config, deps.simulatedWorld ?? demoWorld(), {
      followWallClock: !deps.simulatedWorld,
    });
  }
  await registerWebApp(app, config.webDistDir);

  return app;
}
