import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { BlueskyConfig } from '../../config/config';
import type { Database } from '../../db/schema';
import type { JobLog, JobName } from '../../jobs/job';
import { StreamIngest } from '../../modules/mana/stream-ingest.service';
import { BlueskySocialNetwork } from './bluesky-network';
import { BlueskyStream, type BlueskyStreamOptions } from './bluesky-stream';

/**
 * The jobs the worker runs on Bluesky: no polling search and no interactions poll (the event stream brings posts,
 * likes, reposts, replies, quotes and deletions); refresh reconciles counts from getPosts, settle re-checks
 * interactions with official posts (likes, reposts and replies are public), totals as everywhere.
 */
export const BLUESKY_JOBS: readonly JobName[] = ['refresh', 'settle', 'totals'];

/** Everything the worker needs to read Bluesky: the port on the AppView and the leader's stream consumer. */
export function createBlueskyReading(options: {
  config: BlueskyConfig;
  db: Kysely<Database>;
  log: JobLog;
  clock: Clock;
  stream?: Partial<Pick<BlueskyStreamOptions, 'batchSize' | 'flushMs' | 'maxBackoffMs' | 'relayUrl'>>;
}) {
  const { config, db, log, clock } = options;
  const network = new BlueskySocialNetwork({
    appviewUrl: config.appviewUrl,
    postUrlBase: config.postUrlBase,
  });
  const ingest = new StreamIngest({
    db,
    network,
    authorsOf: (ids) => network.authorsByIds(ids),
    log,
  });
  const stream = new BlueskyStream({
    db,
    ingest,
    log,
    clock,
    relayUrl: config.relayUrl,
    plcUrl: config.plcUrl,
    allowHttp: config.allowHttp,
    ...options.stream,
  });
  return { network, ingest, stream };
}
