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

/** Bluesky's own handle domain: a bare official name `ManaboardHQ` is the account `manaboardhq.bsky.social`. */
export const OFFICIAL_HANDLE_DOMAIN = 'bsky.social';

/** Everything the worker needs to read Bluesky: the port on the AppView and the leader's stream consumer. */
export function createBlueskyReading(options: {
  config: BlueskyConfig;
  db: Kysely<Database>;
  log: JobLog;
  clock: Clock;
  stream?: Partial<Pick<BlueskyStreamOptions, 'batchSize' | 'flushMs' | 'maxBackoffMs' | 'relayUrl'>>;
  /** The domain of a bare official handle (default bsky.social; the local test network's is `test`). */
  officialHandleDomain?: string;
}) {
  const { config, db, log, clock } = options;
  const network = new BlueskySocialNetwork({
    appviewUrl: config.appviewUrl,
    postUrlBase: config.postUrlBase,
  });
  const domain = options.officialHandleDomain ?? OFFICIAL_HANDLE_DOMAIN;
  const ingest = new StreamIngest({
    db,
    // The programme's rules name official accounts as bare names (the rules' handle format): on Bluesky a bare
    // name is an account under bsky.social, Bluesky's own handle domain; a full handle is taken as it is.
    network: {
      authorByHandle: (handle) =>
        network.authorByHandle(handle.includes('.') ? handle : `${handle.replace(/^@/, '')}.${domain}`),
    },
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
    verifyCommits: config.verifyCommits,
    ...options.stream,
  });
  return { network, ingest, stream };
}
