import type { Logger } from 'pino';
import { systemClock } from '../integrations/x/clock';
import type { DatabaseHandle } from '../db/database';
import type { StreamProgressReport } from '../jobs/stream-progress-report';
import { StreamJob } from '../jobs/stream.job';
import { StreamIngest } from '../modules/mana/stream-ingest.service';
import type { SkipReason } from '../social/stream-source';
import { BlueskyFirehose } from '../integrations/bluesky/bluesky-firehose';
import { createFrameReader } from '../integrations/bluesky/bluesky-frames';

/**
 * The stream job as a worker runs it on Bluesky (the engine's ingest, the firehose source reading a relay),
 * against a test's relay: nothing held in memory but what it reads from the database, as after a process start.
 */
export function relayStreamJob(
  database: DatabaseHandle,
  relayUrl: string,
  options: {
    log: Logger;
    flushMs?: number;
    maxBackoffMs?: number;
    thread?: 'worker' | 'inline';
    onProgress?: (report: StreamProgressReport) => void;
    onSkip?: (reason: SkipReason) => void;
    onRefill?: (frames: number) => void;
  },
): StreamJob {
  const { log } = options;
  return new StreamJob({
    db: database.db,
    ingest: new StreamIngest({
      db: database.db,
      network: { authorByHandle: () => Promise.resolve(null) },
      authorsOf: () => Promise.resolve([]),
      log,
    }),
    source: new BlueskyFirehose({
      relayUrl,
      log,
      reader: createFrameReader(),
      flushMs: options.flushMs ?? 100,
      gapNote: 'test',
      ...(options.thread ? { thread: options.thread } : {}),
      ...(options.onSkip ? { onSkip: options.onSkip } : {}),
      ...(options.onRefill ? { onRefill: options.onRefill } : {}),
    }),
    log,
    clock: systemClock,
    maxBackoffMs: options.maxBackoffMs ?? 100,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
