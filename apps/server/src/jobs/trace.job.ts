import { tracePosts } from '../modules/mana/trace.service';
import type { Job } from './job';

/**
 * trace: reads, from the network's public lists, the records behind points the refresh raised without one (the
 * stream missed them) and stores them, each in place of one "not traceable" point (issue 30). Bounded per run
 * (posts and calls); a network that names no records (X) has nothing to do.
 */
export const traceJob: Job = {
  name: 'trace',
  async run({ db, network, clock }) {
    const r = await tracePosts(db, network, new Date(clock.now()));
    return {
      calls: r.calls,
      counts: { posts: r.posts, found: r.found, incomplete: r.incomplete, rateLimited: r.rateLimited },
    };
  },
};
