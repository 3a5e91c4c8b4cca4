import Fastify from 'fastify';
import type { World } from '@manaboard/x-sim';
import { Faults, xSimPlugin } from '@manaboard/x-sim';
import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock';
import type { XConfig } from '../config/config';
import type { Database } from '../db/schema';
import { createXClient } from '../integrations/x/x-client';

export const SIM_APP = {
  clientId: 'test-app',
  clientSecret: 'test-app-secret',
  bearerToken: 'test-app-bearer',
};
export const SIM_CALLBACK = 'http://127.0.0.1:1/auth/twitter/callback';

/**
 * A simulated X listening on a free loopback port, for the server's X client to call over real HTTP. The
 * social network is the one thing tests replace, and only with this simulation.
 */
export async function startSimulatedX(world: World, options: { rateLimitScale?: number } = {}) {
  const faults = new Faults();
  const app = Fastify({ forceCloseConnections: true });
  await app.register(xSimPlugin, {
    world,
    faults,
    appBearerToken: SIM_APP.bearerToken,
    clients: [
      { clientId: SIM_APP.clientId, clientSecret: SIM_APP.clientSecret, redirectUris: [SIM_CALLBACK] },
    ],
    rateLimitScale: options.rateLimitScale ?? 1,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const config: XConfig = {
    mode: 'simulated',
    clientId: SIM_APP.clientId,
    clientSecret: SIM_APP.clientSecret,
    bearerToken: SIM_APP.bearerToken,
    apiBaseUrl: address,
    authorizeUrl: `${address}/i/oauth2/authorize`,
    tokenUrl: `${address}/2/oauth2/token`,
    revokeUrl: `${address}/2/oauth2/revoke`,
    scopes: ['tweet.read', 'users.read', 'like.read', 'offline.access'],
    monthlyReadCap: undefined,
    requestTimeoutMs: 5_000,
    postUrlBase: address,
  };
  return { address, config, faults, world, close: () => app.close() };
}

/**
 * The X adapter's linking half against a simulated X, and its API to check a token with: for module tests that
 * exercise linking through the port without importing the adapter themselves.
 */
export function simulatedXLinking(config: XConfig, db: Kysely<Database>, clock: Clock) {
  const x = createXClient(config, db, { clock });
  return { linking: x.linking, me: (token: string) => x.api.me(token) };
}

/** How long before expiry the X adapter refreshes a token. */
export { REFRESH_MARGIN_MS } from '../integrations/x/x-oauth';
