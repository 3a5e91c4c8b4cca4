import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ApiDeps } from './api-context';
import { AuthStore, type SimClient } from './auth-store';
import { Faults } from './faults';
import { registerOAuthRoutes } from './oauth-routes';
import { registerPostPage } from './post-page';
import { registerProfilePage } from './profile-page';
import { RateLimiter, WINDOW_MS } from './rate-limits';
import { registerSearchRoute } from './routes-search';
import { registerTweetRoutes } from './routes-tweets';
import { registerUserRoutes } from './routes-users';
import type { World } from './world';
import { invalidRequest, oauthError, serverError } from './x-errors';

/** Options of the simulated X plugin. */
export type XSimOptions = {
  /**
   * The world, or a function that builds it (once: see `lazyWorld`), called at the first request that needs it,
   * so a server that mounts the simulation answers its first requests without building the world first.
   */
  world: World | (() => World);
  /** The registered apps (OAuth 2.0 confidential clients) and their exact callback URLs. */
  clients: SimClient[];
  /** The app-only bearer token the API accepts. */
  appBearerToken: string;
  /** Multiplies every rate limit (tests use tiny windows, e.g. 3/450); Infinity turns them off. */
  rateLimitScale?: number;
  /** Length of a rate-limit window (X: 15 minutes). */
  windowMs?: number;
  /** Fault plan shared with the caller (tests and demos inject faults through it). */
  faults?: Faults;
  /** Public base URL of the simulation (for avatar URLs); defaults to the request's own origin + prefix. */
  publicBaseUrl?: string;
  /** Live demo: before each request the world's clock catches up with the wall clock (it never goes back). */
  followWallClock?: boolean;
  /**
   * The clock of authorization codes and tokens (default: the world's). A demo whose world clock is
   * fast-forwarded through its history passes the wall clock: a person signs in in real time, and a 30 s code
   * must not expire because the world jumped six hours meanwhile.
   */
  oauthClock?: () => number;
};

/**
 * The simulated X as a Fastify plugin: OAuth 2.0 with its sign-in page, the API v2 subset and a page per post
 * (`/{handle}/status/{id}`, where a post's link points in simulation mode), under whatever
 * prefix it is registered at (the server uses `/x-sim`). Encapsulated: its form-body parser and its error
 * answers (X's shapes, never a stack) stay inside it.
 */
export const xSimPlugin: FastifyPluginAsync<XSimOptions> = async (app, options) => {
  await app.register(formbody);
  const given = options.world;
  const worldOf = typeof given === 'function' ? given : () => given;
  const auth = new AuthStore(options.oauthClock ?? (() => worldOf().now()));
  const limiter = new RateLimiter(
    () => worldOf().now(),
    options.rateLimitScale ?? 1,
    options.windowMs ?? WINDOW_MS,
  );
  const baseUrl = (request: FastifyRequest) =>
    options.publicBaseUrl ?? `${request.protocol}://${request.host}${app.prefix}`;

  if (options.followWallClock) {
    app.addHook('onRequest', async () => worldOf().clock.setTime(Date.now()));
  }
  app.setErrorHandler(async (error: Error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'simulated X failed');
      return serverError(reply, 500);
    }
    if (/\/oauth2\/(token|revoke)$/.test(request.url.split('?')[0] ?? ''))
      return oauthError(reply, status, 'invalid_request', error.message);
    return invalidRequest(reply, error.message);
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send({ errors: [{ message: 'Sorry, that page does not exist', code: 34 }] }),
  );

  // The routes read `world` when a request comes, so a lazy world is built then.
  registerOAuthRoutes(app, {
    get world() {
      return worldOf();
    },
    clients: options.clients,
    auth,
  });
  const deps: ApiDeps = {
    get world() {
      return worldOf();
    },
    auth,
    appBearerToken: options.appBearerToken,
    limiter,
    faults: options.faults ?? new Faults(),
    baseUrl,
  };
  registerSearchRoute(app, deps);
  registerTweetRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerPostPage(app, deps);
  registerProfilePage(app, deps);
};

/** A world built by `build` the first time it is asked for, then the same one (for `XSimOptions.world`). */
export function lazyWorld(build: () => World): () => World {
  let world: World | undefined;
  return () => (world ??= build());
}
