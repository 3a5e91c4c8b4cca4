import type { FastifyInstance } from 'fastify';
import { buildWorld, xSimPlugin, type World } from '@manaboard/x-sim';
import type { Config } from '../../config/config';

/** The demo world `npm start` serves when no X credentials are configured. */
export function demoWorld(now = Date.now()): World {
  return buildWorld({
    seed: 20261122,
    now,
    members: 200,
    days: 35,
    postsPerMember: 10,
    officialHandles: ['ManaboardHQ', 'ManaboardDev'],
    keywords: ['manaboard'],
    hashtags: ['ManaBoard', 'EarnMana'],
  });
}

/**
 * Mounts the simulated X at `/x-sim` on this server, with the demo app registered for our callback URL. The
 * server's X client then talks to it over HTTP exactly as it would talk to X.
 */
export async function mountSimulatedX(
  app: FastifyInstance,
  config: Pick<Config, 'x' | 'publicOrigin'>,
  world: World,
  options: { followWallClock: boolean },
): Promise<void> {
  await app.register(xSimPlugin, {
    prefix: '/x-sim',
    world,
    appBearerToken: config.x.bearerToken,
    clients: [
      {
        clientId: config.x.clientId,
        clientSecret: config.x.clientSecret,
        redirectUris: [`${config.publicOrigin}/auth/twitter/callback`],
      },
    ],
    followWallClock: options.followWallClock,
  });
}
