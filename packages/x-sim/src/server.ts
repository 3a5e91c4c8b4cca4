import Fastify, { type FastifyInstance } from 'fastify';
import { buildWorld } from './build-world';
import { Faults } from './faults';
import { xSimPlugin } from './plugin';
import type { World } from './world';

/** The demo app registered with the standalone simulation (its credentials are printed at start). */
export const standaloneClient = {
  clientId: 'manaboard-demo-client',
  clientSecret: 'manaboard-demo-secret',
  appBearerToken: 'manaboard-demo-app-bearer',
};

/** Options of the standalone simulated X. */
export type XSimServerOptions = {
  seed?: number;
  /** Callback URLs of the demo app. */
  redirectUris?: string[];
  /** A world of your own (default: a demo world of 200 members around the wall clock's now). */
  world?: World;
  /** Follow the wall clock (default true for the demo world, false for a world of your own). */
  followWallClock?: boolean;
  rateLimitScale?: number;
};

/**
 * Builds the standalone simulated X (its own Fastify server at the root path; `npm run x-sim` listens with
 * it). Never listens itself, so tests can inject into it.
 */
export async function createXSimServer(
  options: XSimServerOptions = {},
): Promise<{ app: FastifyInstance; world: World; faults: Faults }> {
  const app = Fastify({ logger: { level: 'warn' } });
  // A week of activity lies ahead of now, so new posts and engagement keep arriving as the wall clock runs.
  const world =
    options.world ?? buildWorld({ seed: options.seed ?? 42, now: Date.now(), members: 200, aheadDays: 7 });
  const faults = new Faults();
  await app.register(xSimPlugin, {
    world,
    faults,
    appBearerToken: standaloneClient.appBearerToken,
    clients: [
      {
        clientId: standaloneClient.clientId,
        clientSecret: standaloneClient.clientSecret,
        redirectUris: options.redirectUris ?? ['http://localhost:3000/auth/twitter/callback'],
      },
    ],
    followWallClock: options.followWallClock ?? !options.world,
    ...(options.rateLimitScale !== undefined ? { rateLimitScale: options.rateLimitScale } : {}),
  });
  return { app, world, faults };
}
