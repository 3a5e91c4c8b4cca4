import type { Config } from '../config/config';
import { readState } from '../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../modules/mana/stream-events';
import type { NetworkUsageSource } from '../modules/worker-control/worker-control.service';
import { blueskyStreamStatus } from './bluesky/bluesky-stream-status';
import { xUsageStatus } from './x/x-usage-status';

/**
 * The console's usage panel for the configured network (SOCIAL_NETWORK): X's calls per endpoint against
 * X_MONTHLY_READ_CAP with the cost at X_PRICE_PER_READ_USD, or Bluesky's stream lag.
 */
export function networkUsageSource(config: Config): NetworkUsageSource {
  if (config.socialNetwork === 'bluesky')
    return async (db, now) => blueskyStreamStatus(await readState(db, STREAM_JOB), now);
  return (db, now) =>
    xUsageStatus(db, now, {
      monthlyReadCap: config.x.monthlyReadCap,
      pricePerReadUsd: config.x.pricePerReadUsd,
    });
}
