import type { ColumnType, Generated } from 'kysely';

/** Timestamps are written as Date and read back as Date on both PGlite and pg. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Tables of the operator console's member side and worker control (migration 0014). */
export interface AppealsTable {
  // bigserial: pg returns int8 as a string.
  id: Generated<string>;
  author_id: string;
  /** The disqualification this appeal answers (the author's disqualified_at when it was sent). */
  disqualified_at: Timestamp;
  text: string;
  created_at: Timestamp;
  answer: string | null;
  answered_by: string | null;
  answered_at: Timestamp | null;
}

/** One row, id 'worker': whether the worker leader runs its jobs, and who changed that last. */
export interface WorkerControlTable {
  id: string;
  paused: ColumnType<boolean, boolean | undefined, boolean>;
  changed_by: string | null;
  changed_at: Timestamp | null;
}

/** "Run this job now": stored, picked up once by the worker leader (which may be another process). */
export interface JobRunRequestsTable {
  id: Generated<string>;
  job: string;
  requested_by: string;
  requested_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  error: string | null;
}

/** The worker leader's latest progress on an event stream (migration 0016), rewritten every few seconds. */
export interface StreamProgressTable {
  source: string;
  reported_at: Timestamp;
  cursor_time: Timestamp | null;
  seen_per_second: number;
  stored_per_second: number;
  replay_window_seconds: number | null;
  /** Stored events per second per complete tenth of a minute, oldest first (written as JSON). */
  stored_tenths: ColumnType<
    Array<{ at: string; perSecond: number }> | null,
    string | null | undefined,
    string | null
  >;
  /** Network seconds the cursor advanced per wall second over the last minute (null: not measured). */
  cursor_gain: number | null;
}
