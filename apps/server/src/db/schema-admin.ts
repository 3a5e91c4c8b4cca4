import type { ColumnType } from 'kysely';

/** A console session (migration 0013): the SHA-256 of its random id, who, and its two clocks. */
export interface AdminSessionsTable {
  id_hash: string;
  network_user_id: string;
  handle: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  last_seen_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, never>;
}
