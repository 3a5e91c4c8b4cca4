import { recomputeDirtyTotals } from '../modules/mana/totals.service';
import { activeRules } from '../modules/programme/programme.service';
import type { Job } from './job';

/** totals: recomputes the authors whose posts changed (their lines, period rows and the global ranks). */
export const totalsJob: Job = {
  name: 'totals',
  async run({ db, clock }) {
    const { rules } = await activeRules(db);
    const authors = await recomputeDirtyTotals(db, rules, new Date(clock.now()));
    return { calls: 0, counts: { authors } };
  },
};
