import type { Config } from '../config/config';
import type { JobName } from '../lib/job-types';
import { BLUESKY_JOBS } from './bluesky/bluesky-facts';

/** X is read by polling: every job runs (search finds posts, interactions reads who reposted and quoted). */
export const X_JOBS: readonly JobName[] = [
  'search',
  'refresh',
  'interactions',
  'settle',
  'totals',
  'fairness',
  'ledger',
];

/** The jobs the worker runs on the configured network (SOCIAL_NETWORK). */
export function networkJobs(network: Config['socialNetwork']): readonly JobName[] {
  return network === 'bluesky' ? BLUESKY_JOBS : X_JOBS;
}
