import { recomputeTotalsWithRules } from '../modules/mana/rescore.service';
import type { Job } from './job';

/**
 * totals: recomputes the authors whose posts changed (their lines, period rows and the global ranks); after an
 * operator stored new programme rules, first everything those rules affect (see rescoreForRules).
 */
export const totalsJob: Job = {
  name: 'totals',
  async run({ db, clock }) {
    const authors = await recomputeTotalsWithRules(db, new Date(clock.now()));
    return { calls: 0, counts: { authors } };
  },
};
