import type { ColumnType, Generated } from 'kysely';

/** Timestamps are written as Date and read back as Date on both PGlite and pg. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** Tables of the Mana engine (migration 0005). */
export interface ProgrammeRulesTable {
  version: number;
  /** Validated with the contract's programmeRulesSchema on every read. */
  rules: ColumnType<unknown, string, string>;
  source: string;
  created_at: Generated<Date>;
}

export interface AuthorsTable {
  /** The network's user id. */
  id: string;
  handle: string;
  display_name: string;
  avatar_url: string | null;
  first_tracked_at: Timestamp;
  disqualified: Defaulted<boolean>;
  /** Why, by whom and when the author was last disqualified (migration 0014); kept after a requalification. */
  disqualified_reason: ColumnType<string | null, string | null | undefined, string | null>;
  disqualified_by: ColumnType<string | null, string | null | undefined, string | null>;
  disqualified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  totals_dirty: Defaulted<boolean>;
  facts_signature: Defaulted<string>;
  updated_at: Timestamp;
}

export type PostStatus = 'live' | 'deleted' | 'protected';

export interface PostsTable {
  id: string;
  author_id: string;
  text: string;
  created_at: Timestamp;
  kind: 'original' | 'quote';
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  status: Defaulted<PostStatus>;
  over_limit: Defaulted<boolean>;
  final: Defaulted<boolean>;
  mana_fixed: Defaulted<boolean>;
  multiplier: Defaulted<number>;
  mana: Defaulted<number>;
  first_seen_at: Timestamp;
  refreshed_at: Timestamp;
  /** Stream networks: when a reconciling read first missed the post (null while found; ADR 013). */
  missing_since: Timestamp | null;
  /** Points of the counts without a record the programme can name (migration 0019): "not traceable". */
  untraced_likes: Defaulted<number>;
  untraced_replies: Defaulted<number>;
  untraced_reposts: Defaulted<number>;
  untraced_quotes: Defaulted<number>;
  /** When the trace job last read the post's records from the network's lists (migration 0020). */
  traced_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The rules version the post's Mana was last computed with (null before migration 0019). */
  rules_version: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface InteractionsTable {
  member_id: string;
  post_id: string;
  kind: 'like' | 'reply' | 'repost';
  status: Defaulted<'pending' | 'credited' | 'void'>;
  reward: number;
  detected_at: Timestamp;
  check_after: Timestamp;
  settle_by: Timestamp;
  settled_at: Timestamp | null;
  note: string | null;
  /** The member's like, reply or repost record behind the line, and its CID (migration 0019). */
  record_id: ColumnType<string | null, string | null | undefined, string | null>;
  record_cid: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OfficialPostsTable {
  id: string;
  author_id: string;
  created_at: Timestamp;
  deleted: Defaulted<boolean>;
}

export interface ManaTotalsTable {
  period: string;
  author_id: string;
  mana: number;
  posts: number;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  first_tracked_at: Timestamp;
  rank: Defaulted<number>;
}

/** A live open post's metrics as the totals last counted them, until the totals job adds the difference. */
export interface PostMetricChangesTable {
  post_id: string;
  author_id: string;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
}

export interface IngestStateTable {
  job: string;
  cursor: ColumnType<Record<string, unknown>, string | undefined, string>;
  last_run_at: Timestamp | null;
  last_success_at: Timestamp | null;
  next_run_at: Timestamp | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  calls_spent: Defaulted<number>;
  rate_limit_reset_at: Timestamp | null;
  /** The last run's wall-clock duration and counts (migration 0014). */
  last_duration_ms: ColumnType<number | null, number | null | undefined, number | null>;
  last_items: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  /** A stream's: where the oldest event waiting for its post was read, saved with `cursor` (migration 0025). */
  waiting_cursor: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  updated_at: Defaulted<Date>;
}

/** A like, repost, reply or quote the programme counted from an event stream (migration 0012). */
export interface StreamRecordsTable {
  id: string;
  kind: 'like' | 'repost' | 'reply' | 'quote';
  subject_id: string;
  author_id: string;
  created_at: Timestamp;
  /** The record's content hash (null on X, and for records stored before migration 0019). */
  cid: ColumnType<string | null, string | null | undefined, string | null>;
  /** `counted`, or `void` with `void_reason` (deleted, self, duplicate, …) since `void_at` (migration 0019). */
  state: Defaulted<'counted' | 'void'>;
  void_reason: ColumnType<string | null, string | null | undefined, string | null>;
  void_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Who saw it: the event stream, or the AppView's lists when the refresh raised a count the stream missed. */
  source: Defaulted<'stream' | 'appview'>;
  /** Its ledger line as stored with it (migration 0026; null before it: the ledger writes those itself). */
  line: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A counted record's repository proof, kept from the stream's commit frame (migration 0022; ledger-format.md). */
export interface RecordProofsTable {
  record_id: string;
  kind: 'like' | 'repost' | 'reply' | 'quote';
  cid: string;
  /** A CAR: the author's signed commit as its root, the tree's path to the record, the record's block. */
  car: Uint8Array;
  captured_at: Timestamp;
}
