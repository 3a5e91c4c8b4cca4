import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config';
import type { Database } from '../../db/schema';
import type { ListedJob } from '../worker-control/worker-control.service';
import type { NetworkUsageSource } from '../../social/network-usage';
import type { OfficialHandleRule, PostQuery, QueryPreview } from '../../social/social-network';

/**
 * What every console section gets. Sections are plugins registered inside the admin scope (prefix /api/admin),
 * so the scope's guard (session, role, CSRF) and rate limits cover each of their routes without the section
 * doing anything; `adminOf(request)` gives the admin (its `actor` goes into the section's audited services).
 */
export type AdminSectionOptions = {
  db: Kysely<Database>;
  config: Config;
  now: () => number;
  /** Where a post of the network lives (members' breakdown lines link to it). */
  postUrl: (handle: string, postId: string) => string;
  /** How a query of the rules reads on the network, with its length limit (the rules preview). */
  describeQuery: (query: PostQuery) => QueryPreview;
  /** The configured network's rule for official and reserved handles (the rules section checks drafts with it). */
  officialHandles: OfficialHandleRule;
  /** Every job the leading worker schedules on the configured network (the worker section lists them). */
  schedule: readonly ListedJob[];
  /** The configured network's usage panel (the worker section shows it). */
  usage: NetworkUsageSource;
  /** Whether the worker posts each closed week's ledger hash itself (else the console shows the text to post). */
  publishesLedger: boolean;
  /** The database's kind: the ledger reads a week in one snapshot where the database has them. */
  databaseKind: 'pglite' | 'postgres';
  /** After a write that changes Mana (disqualify, rules): drop cached pages, rerun totals where a worker runs. */
  afterManaChange: () => Promise<void>;
};
export type AdminSection = FastifyPluginAsync<AdminSectionOptions>;
