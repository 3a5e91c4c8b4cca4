import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config/config';
import type { Db } from '../db/schema';
import { BlueskyLinking } from '../integrations/bluesky/bluesky-linking';
import { AccountAge } from '../integrations/bluesky/bluesky-account-age';
import { createBlueskyOAuth } from '../integrations/bluesky/bluesky-oauth-client';
import { blueskyOAuthRoutes } from '../integrations/bluesky/bluesky-oauth-routes';
import { blueskyPages, postUrl } from '../integrations/bluesky/bluesky-ids';
import { describeBlueskyQuery } from '../integrations/bluesky/bluesky-query';
import type { Clock } from '../integrations/x/clock';
import type { TokenVault } from '../security/token-vault';
import type { NetworkLinking } from '../social/social-network';

/**
 * Bluesky's linking adapter and post links, and its OAuth client's metadata routes (served when it is a
 * confidential client). Imported by app-network.ts only when SOCIAL_NETWORK=bluesky: its npm packages
 * (@atproto/*) hold about 90 MB that X never needs.
 */
export async function blueskyNetwork(config: Config, db: Db, vault: TokenVault, clock: Clock) {
  const oauth = await createBlueskyOAuth({
    bluesky: config.bluesky,
    publicOrigin: config.publicOrigin,
    clientName: 'Manaboard',
    db,
    vault,
    now: clock.now,
  });
  const routes: FastifyPluginAsync = (app) => blueskyOAuthRoutes(app, { oauth });
  return {
    linking: new BlueskyLinking(
      oauth,
      config.bluesky.appviewUrl,
      clock.now,
      new AccountAge({ plcUrl: config.bluesky.plcUrl }),
    ) as NetworkLinking,
    postUrl: (handle: string, postId: string) => postUrl(config.bluesky.postUrlBase, handle, postId),
    pages: blueskyPages(config.bluesky.postUrlBase),
    describeQuery: describeBlueskyQuery,
    simulatedX: false,
    routes: routes as FastifyPluginAsync | undefined,
  };
}
