import { recomputeFairnessFlags } from '../modules/fairness/fairness.service';
import type { Job } from './job';

/**
 * fairness: recomputes the fairness flags (rings, referral chains of fresh accounts, spikes) from the stored data.
 * No network calls; it runs hourly, off the ingest path, and its flags are advice for the operator.
 */
export const fairnessJob: Job = {
  name: 'fairness',
  async run({ db, clock }) {
    const run = await recomputeFairnessFlags(db, new Date(clock.now()));
    return { calls: 0, counts: { ...run.flags, authors: run.authors, ms: run.ms } };
  },
};
