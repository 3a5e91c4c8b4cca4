import type { World } from '@manaboard/x-sim';
import type { Config } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import type { JobLog } from '../jobs/job';
import type { Worker } from '../jobs/worker';
import type { DemoState } from '../modules/mana/demo-state.service';
import type { Metrics } from '../modules/metrics/metrics';

export type WorkerRuntime = { worker: Worker; start: () => Promise<void>; stop: () => Promise<void> };

/** What worker-runtime.ts builds a worker from, on either network (worker-runtime-bluesky.ts on Bluesky). */
export type WorkerRuntimeOptions = {
  config: Config;
  database: DatabaseHandle;
  log: JobLog;
  /** The demo's world, or a function that builds it once (main.ts: after the API's first answer). */
  demo?: { world: World | (() => World); state: DemoState };
  onTotalsChanged?: () => void;
  /** The process's metrics: job runs, network calls and rate-limit windows are reported to it. */
  metrics?: Metrics;
};
