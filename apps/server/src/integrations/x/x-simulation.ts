import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { programmeRulesSchema } from '@manaboard/contract';
import { buildPlantedWorld, xSimPlugin, type World } from '@manaboard/x-sim';
import { paths, type Config } from '../../config/config';
import { DAY_MS } from '../../lib/time';

/** How far back the demo's history reaches (5 weeks), and how long activity continues after it (2 weeks). */
export const DEMO_HISTORY_DAYS = 35;
const DEMO_AHEAD_DAYS = 14;

/**
 * The demo world `npm start` serves when no X credentials are configured: 200 members and the official
 * accounts, about 2,000 tracked posts over the 5 weeks before `anchor` and two more weeks of activity after it,
 * and one planted reciprocal-engagement ring of 6 accounts that engage mostly with each other, so the console's
 * fairness signals have something real to show (docs/fairness.md).
 * Its clock starts at the beginning of the history, so everything appears as the clock moves: the demo feed
 * fast-forwards it through the history (X search reaches back only 7 days, so the worker must keep up), then it
 * follows the wall clock. The same anchor gives the same world, id for id (main.ts stores the anchor).
 */
export function demoWorld(anchor = Date.now()): World {
  // The demo's people post about the programme as shipped (the rules file the database is seeded from).
  const shipped = programmeRulesSchema.parse(
    JSON.parse(readFileSync(path.join(paths.repoRoot, 'apps/server/content/programme.json'), 'utf8')),
  );
  return buildPlantedWorld({
    seed: 20261122,
    now: anchor - DEMO_HISTORY_DAYS * DAY_MS,
    members: 200,
    days: 0,
    aheadDays: DEMO_HISTORY_DAYS + DEMO_AHEAD_DAYS,
    postsPerMember: 24,
    officialHandles: shipped.officialHandles,
    keywords: shipped.keywords,
    hashtags: shipped.hashtags,
    // Planted after the rest, so every other account and post keeps its id; the others' engagement is as built.
    plant: { rings: 1, size: 6, communities: 0, engagementsPerMember: 60, backgroundEngagementsPerMember: 0 },
  }).world;
}

/**
 * Where browsers reach the simulated X, and so the base of the avatar links it gives: the origin browsers use (and
 * CSP allows as 'self'), not the loopback address the server's X client calls.
 */
export const simulatedXBase = (config: Pick<Config, 'publicOrigin'>): string =>
  `${config.publicOrigin}/x-sim`;

/**
 * Mounts the simulated X at `/x-sim` on this server, with the demo app registered for our callback URL. The
 * server's X client then talks to it over HTTP exactly as it would talk to X.
 */
export async function mountSimulatedX(
  app: FastifyInstance,
  config: Pick<Config, 'x' | 'publicOrigin'>,
  world: World | (() => World),
  options: { followWallClock: boolean; oauthOnWallClock?: boolean },
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
    ...(options.oauthOnWallClock ? { oauthClock: Date.now } : {}),
    publicBaseUrl: simulatedXBase(config),
  });
}
