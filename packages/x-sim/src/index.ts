// The simulated X: a Fastify plugin (OAuth 2.0 + API v2 subset + sign-in page), a deterministic scriptable
// world on its own clock, and a standalone server. See README.md.
export { lazyWorld, xSimPlugin, type XSimOptions } from './plugin';
export { createXSimServer, standaloneClient, type XSimServerOptions } from './server';
export { buildWorld, buildPlantedWorld, type BuildWorldOptions } from './build-world';
export type { PlantOptions, Planted } from './world-rings';
export { World } from './world';
export { HANDLE, type NewUser } from './world-users';
export { SimClock } from './clock';
export { Faults, type FaultDecision } from './faults';
export { defaultLimits, WINDOW_MS, type LimitedEndpoint } from './rate-limits';
export { ACCESS_TOKEN_LIFETIME_MS, CODE_LIFETIME_MS, KNOWN_SCOPES, type SimClient } from './auth-store';
export { snowflake, snowflakeTime, compareIds, TWITTER_EPOCH_MS } from './snowflake';
export { parseQuery, printQuery, QueryError, type QueryNode } from './query';
export { compileQuery, matches, type Matchable } from './query-match';
export type { Engagement, SimLike, SimPost, SimUser, WorldSnapshot } from './world-types';
