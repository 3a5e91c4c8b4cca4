import type { ColumnType } from 'kysely';

/** An official account's stable id (migration 0016), kept from the first time its handle was resolved. */
export interface OfficialAccountsTable {
  /** The handle as the rules name it, lower case. */
  handle: string;
  /** The network's stable id (Bluesky DID, X user id). */
  network_user_id: string;
  resolved_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
