import type { ColumnType } from 'kysely';

/** A pending Bluesky authorization (migration 0011): the OAuth client's state, sealed, keyed by its `state`. */
export interface BlueskyOAuthStatesTable {
  key: string;
  sealed: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A member's Bluesky OAuth session (migration 0011), sealed, one per DID. */
export interface BlueskyOAuthSessionsTable {
  did: string;
  sealed: string;
  /** The link that created this session (see bluesky-linking.ts); null until the callback names it. */
  link_id: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
