import type { Selectable } from 'kysely';
import type { Db, StreamProgressTable } from '../../db/schema';

export type StreamProgressRow = Selectable<StreamProgressTable>;

/** A row to write: the tenths and the gain may be left out (null), as rows written before migration 0023 were. */
export type StreamProgressWrite = Omit<StreamProgressRow, 'stored_tenths' | 'cursor_gain'> &
  Partial<Pick<StreamProgressRow, 'stored_tenths' | 'cursor_gain'>>;

/** Replaces a stream's progress row (the leader writes it every few seconds). */
export async function writeProgress(db: Db, progress: StreamProgressWrite): Promise<void> {
  const row = {
    ...progress,
    stored_tenths: progress.stored_tenths ? JSON.stringify(progress.stored_tenths) : null,
    cursor_gain: progress.cursor_gain ?? null,
  };
  await db
    .insertInto('stream_progress')
    .values(row)
    .onConflict((oc) =>
      oc.column('source').doUpdateSet({
        reported_at: row.reported_at,
        cursor_time: row.cursor_time,
        seen_per_second: row.seen_per_second,
        stored_per_second: row.stored_per_second,
        replay_window_seconds: row.replay_window_seconds,
        stored_tenths: row.stored_tenths,
        cursor_gain: row.cursor_gain,
      }),
    )
    .execute();
}

/** The most recently written progress row (one stream per installation), if any. */
export async function newestProgress(db: Db): Promise<StreamProgressRow | undefined> {
  return db
    .selectFrom('stream_progress')
    .selectAll()
    .orderBy('reported_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The network time of the event the stream's stored cursor names (ingest_state, job `stream`: written with each
 * stored batch), or null when none is stored or its cursor carries no time.
 */
export async function storedCursorTime(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('ingest_state')
    .select('cursor')
    .where('job', '=', 'stream')
    .executeTakeFirst();
  const time = (row?.cursor as { time?: unknown } | undefined)?.time;
  if (typeof time !== 'string') return null;
  const at = new Date(time);
  return Number.isNaN(at.getTime()) ? null : at;
}
