import type { ColumnType, Generated } from 'kysely';

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

/** Typed tables of the database; the migrations under db/migrations are the truth. */
export interface Database {
  announcements: AnnouncementsTable;
  audit_log: AuditLogTable;
  x_api_usage: XApiUsageTable;
  server_secrets: ServerSecretsTable;
}
