import type { Config } from '../config/config';
import type { Db } from '../db/schema';
import type { Clock } from '../integrations/x/clock';
import { createXClient } from '../integrations/x/x-client';
import { xPages } from '../integrations/x/x-pages';
import type { TokenVault } from '../security/token-vault';
import type { NetworkLinking, PostQuery } from '../social/social-network';

/**
 * The configured network's linking adapter, post links and own routes (SOCIAL_NETWORK): X (real or simulated) or
 * Bluesky, whose OAuth client serves its metadata when it is a confidential client. Bluesky's adapter is imported
 * only when it is the network: its packages are not loaded by a server on X.
 */
export async function networkOf(config: Config, db: Db, vault: TokenVault, clock: Clock) {
  if (config.socialNetwork === 'bluesky') {
    const { blueskyNetwork } = await import('./app-network-bluesky');
    return blueskyNetwork(config, db, vault, clock);
  }
  const x = createXClient(config.x, db, { clock });
  return {
    linking: x.linking as NetworkLinking,
    postUrl: (handle: string, postId: string) => x.network.postUrl(handle, postId),
    pages: xPages(config.x.postUrlBase),
    describeQuery: (query: PostQuery) => x.network.describeQuery(query),
    simulatedX: config.x.mode === 'simulated',
    routes: undefined,
  };
}
