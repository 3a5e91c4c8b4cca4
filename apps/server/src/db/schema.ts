import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';
import type {
  AuthorsTable,
  IngestStateTable,
  InteractionsTable,
  ManaTotalsTable,
  OfficialPostsTable,
  PostMetricChangesTable,
  StreamRecordsTable,
  RecordProofsTable,
  PostsTable,
  ProgrammeRulesTable,
} from './schema-mana';
import type { BlueskyOAuthSessionsTable, BlueskyOAuthStatesTable } from './schema-bluesky';
import type { AdminSessionsTable } from './schema-admin';
import type {
  AppealsTable,
  JobRunRequestsTable,
  StreamProgressTable,
  WorkerControlTable,
} from './schema-console';
import type { EngagementEdgesTable, FairnessFlagsTable } from './schema-fairness';
import type { OfficialAccountsTable } from './schema-programme';
import type { LedgerChunksTable, LedgersTable } from './schema-ledger';

export * from './schema-mana';
export * from './schema-bluesky';
export * from './schema-admin';
export * from './schema-console';
export * from './schema-fairness';
export * from './schema-programme';
export * from './schema-ledger';

/** Timestamps are written as Date and read back as Date on both PGlite and pg. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AnnouncementsTable {
  id: string;
  title: string;
  content: string;
  url: string | null;
  status: 'draft' | 'published' | 'archived';
  created_at: ColumnType<Date, Date | string | undefined, never>;
  published_at: Timestamp | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AuditLogTable {
  // bigserial: pg returns int8 as a string.
  id: Generated<string>;
  at: ColumnType<Date, Date | string | undefined, never>;
  actor: string;
  action: string;
  subject: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
}

export interface XApiUsageTable {
  /** UTC day, 'YYYY-MM-DD'. */
  day: ColumnType<string, string, string>;
  endpoint: string;
  calls: number;
  reads: number;
  failures: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface AccountsTable {
  // bigserial: pg returns int8 as a string.
  id: Generated<string>;
  /** The network's stable id for the member (X user id, Bluesky DID). */
  network_user_id: string;
  handle: string;
  avatar_url: string | null;
  /** When the member's network account was created (anti-bot gate). */
  network_created_at: Timestamp | null;
  followers: number;
  /** Sealed (TokenCipher), never plain text. */
  access_token: string | null;
  refresh_token: string | null;
  token_expires_at: Timestamp | null;
  /** Space-separated OAuth scopes granted. */
  scopes: string;
  linked_at: Timestamp;
  updated_at: Timestamp;
  disqualified: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface BrowserLinksTable {
  /** SHA-256 of the browser id (X-User-Id); the id itself is never stored. */
  browser_hash: string;
  account_id: string;
  linked_at: Timestamp;
}

export interface OAuthAttemptsTable {
  state: string;
  code_verifier: string;
  /** The member browser that started linking; null for a console sign-in (migration 0013). */
  browser_hash: string | null;
  referrer_slug: string | null;
  redirect_after: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used: ColumnType<boolean, boolean | undefined, boolean>;
  /** SHA-256 (hex) of the nonce cookie given to the browser that started (migration 0006). */
  nonce_hash: string;
  /** 'link' (a member) or 'admin' (the console), migration 0013: one callback serves both. */
  purpose: ColumnType<'link' | 'admin', 'link' | 'admin' | undefined, never>;
}

export interface ReferralsTable {
  id: Generated<string>;
  referee_account_id: string;
  referrer_account_id: string;
  /** The referrer's Mana for this referee, fixed when the referral was made. */
  reward_mana: number;
  /** credited counts towards the referrer's Mana; void when the referee is disqualified. */
  status: 'credited' | 'void';
  created_at: Timestamp;
}

/** Typed tables of the database; the migrations under db/migrations are the truth. */
export interface Database {
  accounts: AccountsTable;
  browser_links: BrowserLinksTable;
  oauth_attempts: OAuthAttemptsTable;
  referrals: ReferralsTable;
  announcements: AnnouncementsTable;
  audit_log: AuditLogTable;
  x_api_usage: XApiUsageTable;
  server_secrets: ServerSecretsTable;
  programme_rules: ProgrammeRulesTable;
  authors: AuthorsTable;
  posts: PostsTable;
  interactions: InteractionsTable;
  official_posts: OfficialPostsTable;
  mana_totals: ManaTotalsTable;
  post_metric_changes: PostMetricChangesTable;
  stream_records: StreamRecordsTable;
  record_proofs: RecordProofsTable;
  ingest_state: IngestStateTable;
  stream_progress: StreamProgressTable;
  bluesky_oauth_states: BlueskyOAuthStatesTable;
  bluesky_oauth_sessions: BlueskyOAuthSessionsTable;
  admin_sessions: AdminSessionsTable;
  official_accounts: OfficialAccountsTable;
  appeals: AppealsTable;
  worker_control: WorkerControlTable;
  job_run_requests: JobRunRequestsTable;
  engagement_edges: EngagementEdgesTable;
  fairness_flags: FairnessFlagsTable;
  ledgers: LedgersTable;
  ledger_chunks: LedgerChunksTable;
}

/** The database or a transaction on it: what repository functions take, so callers choose atomicity. */
export type Db = Kysely<Database> | Transaction<Database>;
