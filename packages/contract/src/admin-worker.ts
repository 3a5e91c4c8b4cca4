import * as z from 'zod/mini';
import { freeKeys } from './admin-json';

/**
 * The console's Worker and network section (issue 13, section 4): each job's last run, next run, duration,
 * last error and items; the rate-limit state; the network's usage (calls per endpoint per day and month against
 * the cap, with the estimated cost, on a network read by calls; lag and reconnects on one read from a stream);
 * run a job now; pause and resume the worker. Service: modules/worker-control.
 */

export const workerJobNameSchema = z.enum([
  'search',
  'refresh',
  'interactions',
  'settle',
  'totals',
  'ledger',
]);
export type WorkerJobName = z.infer<typeof workerJobNameSchema>;

/**
 * One job of the configured network's schedule (every one is listed, run or not): its schedule, its next run
 * computed from that schedule (null while the worker is paused), and what its last run did.
 */
export const jobStatusSchema = z.object({
  job: z.string(),
  /** When it runs: a cron pattern (UTC; six fields = with seconds), or `every N s` (WORKER_INTERVAL_SECONDS). */
  schedule: z.string(),
  lastRunAt: z.nullable(z.string()),
  lastSuccessAt: z.nullable(z.string()),
  nextRunAt: z.nullable(z.string()),
  lastDurationMs: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
  lastErrorAt: z.nullable(z.string()),
  /** What the last run did (posts, authors, lines…), as the job counts it. */
  items: freeKeys(z.number()),
  callsSpent: z.number(),
  /** When the network's rate-limit window the job waits on reopens; null when not limited. */
  rateLimitResetAt: z.nullable(z.string()),
});

const endpointUsageSchema = z.object({
  endpoint: z.string(),
  today: z.object({ calls: z.number(), reads: z.number(), failures: z.number() }),
  month: z.object({ calls: z.number(), reads: z.number(), failures: z.number() }),
});

/** Usage of a network read by calls per endpoint, the monthly read cap and the estimated cost. */
export const callsUsageSchema = z.object({
  kind: z.literal('calls'),
  network: z.string(),
  endpoints: z.array(endpointUsageSchema),
  monthReads: z.number(),
  monthlyReadCap: z.nullable(z.number()),
  pricePerReadUsd: z.number(),
  monthCostUsd: z.number(),
  todayCostUsd: z.number(),
});

/**
 * Whether and when a stream that fell behind catches up: `gain` is the network seconds its cursor advanced per
 * wall-clock second over the last minute; `seconds` the time left to reach the network's present at that gain,
 * lag / (gain − 1) (set while catching up; 0 when caught up, i.e. within the lag bound).
 */
export const streamCatchUpSchema = z.object({
  state: z.enum(['caught-up', 'catching-up', 'not-catching-up', 'unknown']),
  seconds: z.nullable(z.number()),
  gain: z.nullable(z.number()),
});
export type StreamCatchUp = z.infer<typeof streamCatchUpSchema>;

/**
 * Usage of a network read from an event stream: how far behind it is, how fast it reads and stores, how much of
 * the source's replay window is left before events are lost, and how often it reconnected. Rates and the window
 * come from the progress the leading worker stores every few seconds (null: no fresh report).
 */
export const streamUsageSchema = z.object({
  kind: z.literal('stream'),
  network: z.string(),
  lastEventAt: z.nullable(z.string()),
  lagSeconds: z.nullable(z.number()),
  /** The lag above which the stream counts as behind (READY_STREAM_MAX_LAG_SECONDS; null: not checked). */
  lagBoundSeconds: z.nullable(z.number()),
  /** Events read from the network per second (kept and dropped), and stored, over the last half minute. */
  seenPerSecond: z.nullable(z.number()),
  storedPerSecond: z.nullable(z.number()),
  /** How long the source replays from a cursor, and how much of that is left at the current lag. */
  replayWindowSeconds: z.nullable(z.number()),
  replayWindowLeftSeconds: z.nullable(z.number()),
  /** When the leading worker last stored its progress. */
  progressAt: z.nullable(z.string()),
  /** Stored events per second per complete tenth of a minute (6 s) of the last two, oldest first; empty: no report. */
  storedPerTenth: z.array(z.object({ at: z.string(), perSecond: z.number() })),
  catchUp: streamCatchUpSchema,
  /** Reconnects recorded since the stream last started (null: not recorded by this process). */
  reconnects: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
});

export const networkUsageSchema = z.discriminatedUnion('kind', [callsUsageSchema, streamUsageSchema]);
export type NetworkUsage = z.infer<typeof networkUsageSchema>;

export const runRequestSchema = z.object({
  id: z.string(),
  job: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type RunRequest = z.infer<typeof runRequestSchema>;

export const workerStatusSchema = z.object({
  paused: z.boolean(),
  pausedBy: z.nullable(z.string()),
  pausedAt: z.nullable(z.string()),
  jobs: z.array(jobStatusSchema),
  usage: networkUsageSchema,
  runRequests: z.array(runRequestSchema),
});
export type WorkerStatus = z.infer<typeof workerStatusSchema>;

/** Pause or resume the worker (it obeys between runs, in whichever process leads). */
export const setWorkerPausedRequestSchema = z.strictObject({ paused: z.boolean() });
/** Run one job now (the leading worker picks the request up within seconds). */
export const runJobNowRequestSchema = z.strictObject({ job: workerJobNameSchema });
