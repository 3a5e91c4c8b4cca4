import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { SocialNetwork } from '../social/social-network';
import type { LedgerPublishing } from '../social/ledger-publishing';
import type { JobLog, JobName, JobOutcome } from '../lib/job-types';

export type { JobLog, JobName, JobOutcome } from '../lib/job-types';

/** What every job runs with: the database, the network behind the port, time, and the log. */
export type JobContext = {
  db: Kysely<Database>;
  network: SocialNetwork;
  clock: Clock;
  log: JobLog;
  /**
   * A linked member's own access token (refreshed when due), for what only the member may read: their likes.
   * Absent, likes of official posts are not detected.
   */
  memberToken?: (accountId: string) => Promise<string | undefined>;
  /**
   * What the ledger job needs: where the ledger is served (the published post links to it), the database kind (a
   * snapshot where it has them), and the official account's publisher where the network's adapter can post.
   * Absent, the ledger job does nothing.
   */
  ledger?: { publicOrigin: string; databaseKind: 'pglite' | 'postgres'; publisher?: LedgerPublishing };
};

/** A worker job: idempotent, safe to run twice, resumable after a crash from its stored cursor. */
export type Job = { name: JobName; run: (context: JobContext) => Promise<JobOutcome> };

export { DAY_MS } from '../lib/time';

/** A since_id within this margin of the network's search reach is treated as out of reach (clock skew). */
export const SEARCH_REACH_MARGIN_MS = 3_600_000;
