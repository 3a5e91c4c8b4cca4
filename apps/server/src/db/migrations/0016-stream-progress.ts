import type { Kysely } from 'kysely';

/**
 * `stream_progress` (issue 22): one row per event stream the worker leader consumes (`source`, e.g. the network's
 * name), rewritten every few seconds by the leader, so any process (an API that is not the worker) can show how
 * far behind the stream is, how fast it reads and stores, and how much of the source's replay window is left.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stream_progress')
    .addColumn('source', 'text', (col) => col.primaryKey())
    .addColumn('reported_at', 'timestamptz', (col) => col.notNull())
    // The network's time of the newest event stored: the lag is measured from it.
    .addColumn('cursor_time', 'timestamptz')
    .addColumn('seen_per_second', 'double precision', (col) => col.notNull())
    .addColumn('stored_per_second', 'double precision', (col) => col.notNull())
    .addColumn('replay_window_seconds', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stream_progress').execute();
}
