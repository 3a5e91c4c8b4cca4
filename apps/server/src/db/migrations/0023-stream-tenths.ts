import type { Kysely } from 'kysely';

/**
 * `stream_progress` gains what the console shows of a backlog (issue 31 item 4): the stored events per second for
 * each complete tenth of a minute of the last two (a small JSON array, rewritten with the row), and how many seconds
 * of the network's time the stream's cursor advanced per wall-clock second over the last minute, from which the
 * time left to catch up follows. Both are null in rows written before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stream_progress').addColumn('stored_tenths', 'jsonb').execute();
  await db.schema.alterTable('stream_progress').addColumn('cursor_gain', 'double precision').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stream_progress').dropColumn('cursor_gain').execute();
  await db.schema.alterTable('stream_progress').dropColumn('stored_tenths').execute();
}
