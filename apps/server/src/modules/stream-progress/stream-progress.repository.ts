import type { Selectable } from 'kysely';
import type { Db, StreamProgressTable } from '../../db/schema';

export type StreamProgressRow = Selectable<StreamProgressTable>;

/** Replaces a stream's progress row (the leader writes it every few seconds). */
export async function writeProgress(db: Db, row: StreamProgressRow): Promise<void> {
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
