import type { Config } from '../config/config';
import type { Db } from '../db/schema';
import { blueskyStreamStatus } from '../integrations/bluesky/bluesky-stream-status';
import { xUsageStatus } from '../integrations/x/x-usage-status';
import { readState } from '../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../modules/mana/stream-events';
import { catchUpOf } from '../modules/stream-progress/stream-catch-up';
import { storedStreamReading } from '../modules/stream-progress/stream-progress.service';
import type { NetworkUsageSource } from '../social/network-usage';

/**
 * The console's usage panel for the configured network (SOCIAL_NETWORK), wired here at the composition root: X's
 * calls per endpoint against X_MONTHLY_READ_CAP with the cost at X_PRICE_PER_READ_USD, or Bluesky's stream lag,
 * rates and replay window from the engine's stored cursor and progress row.
 */
export function networkUsageSource(config: Config, db: Db): NetworkUsageSource {
  if (config.socialNetwork === 'bluesky')
    return async (now) => {
      const bound = config.stream.maxLagSeconds;
      const [state, progress] = await Promise.all([
        readState(db, STREAM_JOB),
        storedStreamReading(db, now, bound),
      ]);
      return blueskyStreamStatus(state, progress, now, bound, (lag) =>
        catchUpOf(lag, bound, progress?.catchUp.gain ?? null),
      );
    };
  return (now) =>
    xUsageStatus(db, now, {
      monthlyReadCap: config.x.monthlyReadCap,
      pricePerReadUsd: config.x.pricePerReadUsd,
    });
}
