import type { Config } from './config/config';
import type { Db } from './db/schema';
import { BlueskyLinking } from './integrations/bluesky/bluesky-linking';
import { AccountAge } from './integrations/bluesky/bluesky-account-age';
import { createBlueskyOAuth, type BlueskyOAuth } from './integrations/bluesky/bluesky-oauth-client';
import { postUrl as blueskyPostUrl } from './integrations/bluesky/bluesky-ids';
import { describeBlueskyQuery } from './integrations/bluesky/bluesky-query';
import type { Clock } from './integrations/x/clock';
import { createXClient } from './integrations/x/x-client';
import type { TokenVault } from './security/token-vault';
import type { NetworkLinking, PostQuery } from './social/social-network';

/**
 * The configured network's linking adapter and post links (SOCIAL_NETWORK): X (real or simulated) or Bluesky,
 * whose OAuth client also serves its metadata when it is a confidential client.
 */
export async function networkOf(config: Config, db: Db, vault: TokenVault, clock: Clock) {
  if (config.socialNetwork === 'bluesky') {
    const oauth = await createBlueskyOAuth({
      bluesky: config.bluesky,
      publicOrigin: config.publicOrigin,
      clientName: 'Manaboard',
      db,
      vault,
      now: clock.now,
    });
    return {
      linking: new BlueskyLinking(
        oauth,
        config.bluesky.appviewUrl,
        clock.now,
        new AccountAge({ plcUrl: config.bluesky.plcUrl }),
      ) as NetworkLinking,
      postUrl: (handle: string, postId: string) => blueskyPostUrl(config.bluesky.postUrlBase, handle, postId),
      describeQuery: describeBlueskyQuery,
      simulatedX: false,
      blueskyOAuth: oauth as BlueskyOAuth | undefined,
    };
  }
  const x = createXClient(config.x, db, { clock });
  return {
    linking: x.linking as NetworkLinking,
    postUrl: (handle: string, postId: string) => x.network.postUrl(handle, postId),
    describeQuery: (query: PostQuery) => x.network.describeQuery(query),
    simulatedX: config.x.mode === 'simulated',
    blueskyOAuth: undefined,
  };
}
