import { BLUESKY_JOBS, createBlueskyStreaming } from './bluesky-streaming';
import { LoopTurnPlugin } from '../db/loop-turn-plugin';
import { RELAY_REPLAY_MS } from '../integrations/bluesky/bluesky-facts';
import { BlueskyLedgerPublisher } from '../integrations/bluesky/bluesky-ledger-publisher';
import { systemClock } from '../integrations/x/clock';
import { StreamProgressReporter } from '../jobs/stream-progress';
import { Worker } from '../jobs/worker';
import { workerPaused } from '../jobs/worker-control';
import { TotalsSoon } from '../jobs/totals-soon';
import { storedStreamReading } from '../modules/stream-progress/stream-progress.service';
import type { WorkerRuntime, WorkerRuntimeOptions } from './worker-runtime-types';

/**
 * The worker on Bluesky: the port on the public AppView, and the event-stream consumer that the leader alone
 * runs (started with leadership, stopped when stepping down or stopping). No polling search; no member tokens
 * (likes, reposts and replies are public records). Imported by worker-runtime.ts only on Bluesky, so a worker on
 * X never loads its packages (@atproto/*, @atcute/*, ws).
 */
export function blueskyRuntime(options: WorkerRuntimeOptions): WorkerRuntime {
  const { config, database, log, metrics } = options;
  const clock = systemClock;
  const db = database.db;
  // On PGlite the stream's statements run on the thread that serves requests: each lets the loop turn (issue 31).
  // On its own thread (PGLITE_THREAD, the default on Bluesky) a statement holds nothing here.
  const streamDb =
    database.kind === 'pglite' && !database.threaded ? db.withPlugin(new LoopTurnPlugin()) : db;
  // Lag, rates and the relay's replay window left: this process's metrics, the log, and a row for other processes.
  const progress = new StreamProgressReporter({
    db,
    log,
    source: 'bluesky',
    replayWindowMs: RELAY_REPLAY_MS,
    maxLagSeconds: config.stream.maxLagSeconds,
  });
  metrics?.watchStream(async () =>
    progress.hasReports
      ? progress.reading()
      : storedStreamReading(db, new Date(), config.stream.maxLagSeconds),
  );
  // A like the stream stored reaches the board within seconds, not at the next scheduled totals run.
  const totalsSoon = new TotalsSoon(async () => {
    if (!(await workerPaused(db, log))) await worker.runJob('totals');
  });
  const reading = createBlueskyStreaming({
    config: config.bluesky,
    db: streamDb,
    log,
    clock,
    stream: {
      onProgress: (report) => {
        progress.report(report);
        if (report.stored > 0) totalsSoon.request();
      },
    },
    ...(metrics
      ? {
          onSkip: (reason) => metrics.countStreamSkip(reason),
          onRefill: (frames) => metrics.countStreamRefill('bluesky', frames),
        }
      : {}),
  });
  // The app account (sealed) publishes each closed week's ledger hash, when it is the first official account.
  const appAccount = config.bluesky.appAccount;
  const publisher = appAccount
    ? new BlueskyLedgerPublisher({ account: appAccount, postUrlBase: config.bluesky.postUrlBase })
    : undefined;
  const worker = new Worker(
    {
      db: database.db,
      network: reading.network,
      clock,
      log,
      ledger: {
        publicOrigin: config.publicOrigin,
        databaseKind: database.kind,
        ...(publisher ? { publisher } : {}),
      },
    },
    {
      databaseKind: database.kind,
      jobs: BLUESKY_JOBS,
      leaderServices: [
        {
          name: 'bluesky-stream',
          start: async () => {
            progress.start();
            totalsSoon.start();
            await reading.stream.start();
          },
          stop: async () => {
            await reading.stream.stop();
            totalsSoon.stop();
            await progress.stop();
          },
        },
      ],
      ...(config.workerIntervalSeconds ? { intervalSeconds: config.workerIntervalSeconds } : {}),
      ...(options.onTotalsChanged ? { onTotalsChanged: options.onTotalsChanged } : {}),
      ...(metrics ? { onRun: (report) => metrics.observeJobRun(report) } : {}),
    },
  );
  return { worker, start: () => worker.start(), stop: () => worker.stop() };
}
