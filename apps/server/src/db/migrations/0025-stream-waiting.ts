import type { Kysely } from 'kysely';

/**
 * `ingest_state.waiting_cursor` (issue 32, the worker killed in the middle of a batch): beside a stream's stored
 * cursor, in the same write, where the oldest like, repost, reply or quote still waiting in memory for its post was
 * read (the source's cursor of that frame; Bluesky `{ seq, time }`). The stored cursor moves past such likes, so a
 * process that dies lost them; a start now reads from here again to refill the waiting room (nothing stored), then
 * on from the cursor. Null when none waits, for other jobs, and in rows written before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_state').addColumn('waiting_cursor', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_state').dropColumn('waiting_cursor').execute();
}
