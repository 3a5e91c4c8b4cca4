import type { FastifyBaseLogger } from 'fastify';

/**
 * The worker's vocabulary, below both the worker (jobs/) and what reports on it (metrics, the console, the network
 * adapters' job lists), so none of them reaches up into the worker for a name.
 */
export type JobName =
  'search' | 'refresh' | 'interactions' | 'settle' | 'totals' | 'fairness' | 'trace' | 'ledger';

/** What a run did, for the log and the operator's job state. */
export type JobOutcome = { calls: number; counts: Record<string, number> };

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
