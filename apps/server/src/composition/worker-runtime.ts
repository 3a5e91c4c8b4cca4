import type { World } from '@manaboard/x-sim';
import { systemClock } from '../integrations/x/clock';
import { createXClient } from '../integrations/x/x-client';
import type { XEndpoint, XFetch } from '../integrations/x/x-http';
import { loopbackFetch } from '../integrations/x/loopback-fetch';
import { demoClock, followWallClock, replayDemoHistory } from '../integrations/x/demo-feed';
import type { JobName } from '../jobs/job';
import { Worker } from '../jobs/worker';
import { saveDemoProgress } from '../modules/mana/demo-state.service';
import { memberAccessToken, type LinkingDeps } from '../modules/linking/linking.service';
import { TokenVault } from '../security/token-vault';
import type { WorkerRuntime, WorkerRuntimeOptions } from './worker-runtime-types';

export type { WorkerRuntime } from './worker-runtime-types';

/** The X endpoint whose rate-limit window each job waits on (for the operator's job state). */
const endpointOf: Record<JobName, XEndpoint | null> = {
  search: 'search/recent',
  refresh: 'tweets',
  interactions: 'retweeted_by',
  settle: 'retweeted_by',
  totals: null,
  fairness: null,
  trace: null,
  ledger: null,
};

/** The app-token endpoints whose rate-limit windows the metrics show. */
const watchedEndpoints: XEndpoint[] = [
  'search/recent',
  'tweets',
  'retweeted_by',
  'quote_tweets',
  'users/by/username',
];

/**
 * The demo's calls to the simulated X this same process serves, over loopback (loopback-fetch.ts: `node:http`, not
 * undici): asked for uncompressed answers, so the server does not gzip what its own client then gunzips (issue 33:
 * ~5% of the replay's CPU went to zlib). The calls are otherwise as sent to X (same URLs, token, accept header,
 * rate-limit accounting).
 */
const uncompressedFetch: XFetch = (url, init) =>
  loopbackFetch(url, { ...init, headers: { ...init.headers, 'accept-encoding': 'identity' } });

/**
 * The worker as the process runs it: its own X client (the app's bearer token), the jobs, and, for the demo,
 * the replay of the simulated history before the schedule starts. `demo` is given only when this process also
 * serves the simulated X (`npm start`): only then can it move the simulated clock.
 */
export async function createWorkerRuntime(options: WorkerRuntimeOptions): Promise<WorkerRuntime> {
  const { config, database, log, demo, metrics } = options;
  const given = demo?.world;
  const worldOf = typeof given === 'function' ? given : () => given as World;
  const replayClock = demo ? demoClock(worldOf) : undefined;
  const clock = replayClock ?? systemClock;
  if (config.socialNetwork === 'bluesky') {
    // Bluesky's adapter and its packages are loaded only on Bluesky.
    const { blueskyRuntime } = await import('./worker-runtime-bluesky');
    return blueskyRuntime(options);
  }
  const x = createXClient(config.x, database.db, {
    clock,
    ...(demo ? { fetch: uncompressedFetch } : {}),
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
    {
      db: database.db,
      network: x.network,
      clock,
      log,
      memberToken,
      // X has no publication: the console shows the text to post by hand.
      ledger: { publicOrigin: config.publicOrigin, databaseKind: database.kind },
    },
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
  // The demo's progress is the engine's to keep: the X replay is handed where it resumes and how to save.
  const progress = demo && {
    resumeAt: demo.state.simulatedAt,
    save: (simulatedAt: number) => saveDemoProgress(database.db, { ...demo.state, simulatedAt }),
  };
  return {
    worker,
    start: async () => {
      if (demo && replayClock && progress) {
        try {
          await replayDemoHistory({ world: worldOf(), worker, progress, log });
        } catch (error) {
          log.error({ err: error }, 'demo: history replay failed; the worker continues live');
        }
        if (worker.isStopped) return; // shut down during the replay
        replayClock.live();
        stopFollowing = followWallClock({ world: worldOf(), progress });
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
