import type { World } from '@manaboard/x-sim';
import type { Config } from './config/config';
import { BLUESKY_JOBS, createBlueskyStreaming } from './bluesky-streaming';
import type { DatabaseHandle } from './db/database';
import { systemClock } from './integrations/x/clock';
import { createXClient } from './integrations/x/x-client';
import type { XEndpoint } from './integrations/x/x-http';
import type { Metrics } from './modules/metrics/metrics';
import { demoClock, followWallClock, replayDemoHistory } from './integrations/x/demo-feed';
import type { JobLog, JobName } from './jobs/job';
import { Worker } from './jobs/worker';
import type { DemoState } from './modules/mana/demo-state.service';
import { memberAccessToken, type LinkingDeps } from './modules/linking/linking.service';
import { TokenVault } from './security/token-vault';

/** The X endpoint whose rate-limit window each job waits on (for the operator's job state). */
const endpointOf: Record<JobName, XEndpoint | null> = {
  search: 'search/recent',
  refresh: 'tweets',
  interactions: 'retweeted_by',
  settle: 'retweeted_by',
  totals: null,
  fairness: null,
};

/** The app-token endpoints whose rate-limit windows the metrics show. */
const watchedEndpoints: XEndpoint[] = [
  'search/recent',
  'tweets',
  'retweeted_by',
  'quote_tweets',
  'users/by/username',
];

export type WorkerRuntime = { worker: Worker; start: () => Promise<void>; stop: () => Promise<void> };

/**
 * The worker as the process runs it: its own X client (the app's bearer token), the jobs, and, for the demo,
 * the replay of the simulated history before the schedule starts. `demo` is given only when this process also
 * serves the simulated X (`npm start`): only then can it move the simulated clock.
 */
export function createWorkerRuntime(options: {
  config: Config;
  database: DatabaseHandle;
  log: JobLog;
  demo?: { world: World; state: DemoState };
  onTotalsChanged?: () => void;
  /** The process's metrics: job runs, network calls and rate-limit windows are reported to it. */
  metrics?: Metrics;
}): WorkerRuntime {
  const { config, database, log, demo, metrics } = options;
  const replayClock = demo ? demoClock(demo.world) : undefined;
  const clock = replayClock ?? systemClock;
  if (config.socialNetwork === 'bluesky') return blueskyRuntime(options);
  const x = createXClient(config.x, database.db, {
    clock,
    ...(metrics ? { onCall: (call) => metrics.observeNetworkCall(call.endpoint, call.status) } : {}),
  });
  metrics?.watchRateWindows(() =>
    watchedEndpoints.flatMap((endpoint) => {
      const window = x.http.rateWindow(endpoint, config.x.bearerToken);
      return window ? [{ endpoint, remaining: window.remaining, limit: window.limit }] : [];
    }),
  );
  // The worker's budget also counts the calls it has not written to the ledger yet.
  metrics?.watchMonthReads(async () => (await x.budget.thisMonth()).reads);
  // Members' likes are read with their own tokens, refreshed and re-sealed by the linking module.
  const linking: LinkingDeps = {
    db: database.db,
    network: x.linking,
    vault: new TokenVault(config, log),
    publicOrigin: config.publicOrigin,
    now: clock.now,
    log,
  };
  const memberToken = (accountId: string) => memberAccessToken(linking, accountId);
  const worker = new Worker(
    { db: database.db, network: x.network, clock, log, memberToken },
    {
      databaseKind: database.kind,
      ...(config.workerIntervalSeconds ? { intervalSeconds: config.workerIntervalSeconds } : {}),
      ...(options.onTotalsChanged ? { onTotalsChanged: options.onTotalsChanged } : {}),
      ...(metrics ? { onRun: (report) => metrics.observeJobRun(report) } : {}),
      rateLimitResetAt: (job) => {
        const endpoint = endpointOf[job];
        const window = endpoint ? x.http.rateWindow(endpoint, config.x.bearerToken) : undefined;
        return window && window.remaining === 0 ? new Date(window.resetAtMs) : null;
      },
    },
  );
  let stopFollowing: (() => void) | undefined;
  return {
    worker,
    start: async () => {
      if (demo && replayClock) {
        try {
          await replayDemoHistory({ db: database.db, world: demo.world, worker, state: demo.state, log });
        } catch (error) {
          log.error({ err: error }, 'demo: history replay failed; the worker continues live');
        }
        if (worker.isStopped) return; // shut down during the replay
        replayClock.live();
        stopFollowing = followWallClock({ db: database.db, world: demo.world, state: demo.state });
      }
      await worker.start();
    },
    stop: async () => {
      stopFollowing?.();
      await worker.stop();
      // Calls counted since the budget's last write (it writes at most a second after a call).
      await x.budget
        .flush()
        .catch((error: unknown) => log.error({ err: error }, 'x budget: ledger not written'));
    },
  };
}

/**
 * The worker on Bluesky: the port on the public AppView, and the event-stream consumer that the leader alone
 * runs (started with leadership, stopped when stepping down or stopping). No polling search; no member tokens
 * (likes, reposts and replies are public records).
 */
function blueskyRuntime(options: Parameters<typeof createWorkerRuntime>[0]): WorkerRuntime {
  const { config, database, log, metrics } = options;
  const clock = systemClock;
  const reading = createBlueskyStreaming({ config: config.bluesky, db: database.db, log, clock });
  const worker = new Worker(
    { db: database.db, network: reading.network, clock, log },
    {
      databaseKind: database.kind,
      jobs: BLUESKY_JOBS,
      leaderServices: [
        { name: 'bluesky-stream', start: () => reading.stream.start(), stop: () => reading.stream.stop() },
      ],
      ...(config.workerIntervalSeconds ? { intervalSeconds: config.workerIntervalSeconds } : {}),
      ...(options.onTotalsChanged ? { onTotalsChanged: options.onTotalsChanged } : {}),
      ...(metrics ? { onRun: (report) => metrics.observeJobRun(report) } : {}),
    },
  );
  return { worker, start: () => worker.start(), stop: () => worker.stop() };
}
