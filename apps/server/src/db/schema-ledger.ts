import type { ColumnType } from 'kysely';
import type { NetworkName } from '../social/social-network';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Nullable<T, W = T> = ColumnType<T | null, W | null | undefined, W | null>;
/** bigint: pg returns int8 as a string, PGlite as a number; read with Number(). */
type BigCount = ColumnType<string | number | null, number | null | undefined, number | null>;

/** One edition of a closed week's ledger (migration 0021). */
export interface LedgersTable {
  /** The ISO week, `2026-W48`. */
  week: string;
  /** 1 for the week's first ledger, then one more for each correction. */
  edition: number;
  /** `building` while its chunks are written (never served), `stored` once whole. */
  state: ColumnType<'building' | 'stored', 'building' | 'stored' | undefined, 'building' | 'stored'>;
  /** The programme's network (the header's `network`; a correction keeps it). */
  network: NetworkName;
  /** When the week closed: the header's `closedAt`, the same in every edition. */
  closed_at: Timestamp;
  /** When this edition was made (the index's date). */
  created_at: Timestamp;
  /** The last time its build wrote (a chunk); a `building` row not touched for 10 minutes is dropped as stale. */
  updated_at: Timestamp;
  /** The building process's random token (migration 0024): its writes count only while the row holds it. */
  build_token: Nullable<string>;
  /** Why a correction was issued (null for edition 1). */
  reason: Nullable<string>;
  /** `worker`, or the operator who issued a correction. */
  created_by: string;
  sha256: Nullable<string>;
  byte_length: BigCount;
  /** The stored gzip stream's length (the answer's Content-Length when sent as gzip). */
  gzip_length: BigCount;
  /** The end line's member count and Mana (the publication's text). */
  members: Nullable<number>;
  mana: BigCount;
  published_uri: Nullable<string>;
  published_cid: Nullable<string>;
  published_at: Nullable<Date, Date | string>;
  /** Where a person sees the post (the network's web address of it). */
  published_url: Nullable<string>;
  publish_attempts: ColumnType<number, number | undefined, number>;
  publish_error: Nullable<string>;
  publish_next_at: Nullable<Date, Date | string>;
}

/** A piece of an edition's gzip stream (about 1 MB); the pieces in `seq` order are one gzip file. */
export interface LedgerChunksTable {
  week: string;
  edition: number;
  seq: number;
  data: Uint8Array;
  /** How many bytes of text went in since the piece before (for the operator's curiosity). */
  raw_length: number;
}
