import { closeWeeks } from '../modules/ledger/ledger-close.service';
import { publishDue } from '../modules/ledger/ledger-publish.service';
import type { Job, JobOutcome } from './job';

/**
 * ledger: closes each week that can no longer move (its edition 1, stored byte for byte), then publishes the hash
 * of every stored edition not yet published, from the official account where the network's adapter can (retried
 * with backoff, never posted twice). Leader-only, like every scheduled job.
 */
export const ledgerJob: Job = {
  name: 'ledger',
  async run({ db, clock, network, ledger, log }): Promise<JobOutcome> {
    if (!ledger) return { calls: 0, counts: {} };
    const now = new Date(clock.now());
    const { closed } = await closeWeeks({ db, kind: ledger.databaseKind, network: network.name }, now);
    const published = ledger.publisher
      ? await publishDue(db, { publisher: ledger.publisher, publicOrigin: ledger.publicOrigin, now, log })
      : { published: 0, failed: 0 };
    return {
      calls: published.published + published.failed,
      counts: { closed: closed.length, published: published.published, failed: published.failed },
    };
  },
};
