import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock';
import type { BlueskyConfig } from '../config/config';
import type { Database } from '../db/schema';
import { createBlueskyReading, type StreamTuning } from '../integrations/bluesky/bluesky-reading';
import type { JobLog } from '../jobs/job';
import { StreamJob } from '../jobs/stream.job';
import { StreamIngest } from '../modules/mana/stream-ingest.service';
import type { SkipReason } from '../social/stream-source';
import type { StreamProgressReport } from '../jobs/stream-progress-report';

export { BLUESKY_JOBS } from '../integrations/bluesky/bluesky-facts';

/**
 * The composition of Bluesky's stream (the port's adapter) with the engine: the adapter's source and profile
 * reads, the engine's StreamIngest and its stream job (the worker leader's loop). `stream` is the job, with
 * `storedThrough(seq)` for tests and benches that wait on the relay's sequence number.
 */
export function createBlueskyStreaming(options: {
  config: BlueskyConfig;
  db: Kysely<Database>;
  log: JobLog;
  clock: Clock;
  stream?: StreamTuning & {
    maxBackoffMs?: number;
    /** One report per stored batch or cursor-only save (the operator's lag and rates). */
    onProgress?: (report: StreamProgressReport) => void;
  };
  gapFill?: Parameters<typeof createBlueskyReading>[0]['gapFill'];
  officialHandleDomain?: string;
  onSkip?: (reason: SkipReason) => void;
  onRefill?: (frames: number) => void;
}) {
  const { db, log, clock } = options;
  const { maxBackoffMs, onProgress, ...tuning } = options.stream ?? {};
  const reading = createBlueskyReading({
    config: options.config,
    log,
    clock,
    stream: tuning,
    ...(options.gapFill ? { gapFill: options.gapFill } : {}),
    ...(options.officialHandleDomain ? { officialHandleDomain: options.officialHandleDomain } : {}),
    ...(options.onSkip ? { onSkip: options.onSkip } : {}),
    ...(options.onRefill ? { onRefill: options.onRefill } : {}),
  });
  const ingest = new StreamIngest({
    db,
    network: { authorByHandle: reading.authorByHandle },
    authorsOf: reading.authorsOf,
    currentHandle: reading.currentHandle,
    log,
  });
  const job = new StreamJob({
    db,
    ingest,
    source: reading.source,
    log,
    clock,
    ...(maxBackoffMs !== undefined ? { maxBackoffMs } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const stream = Object.assign(job, {
    /** Resolves once a batch reaching the relay's sequence number `seq` is stored. */
    storedThrough: (seq: number) =>
      job.storedUntil((cursor) => typeof cursor.seq === 'number' && cursor.seq >= seq),
  });
  return { network: reading.network, source: reading.source, ingest, stream };
}
