import type { Kysely } from 'kysely';

/**
 * On a stream network (ADR 013) a post the AppView does not return is not deleted at once: it may simply not be
 * indexed yet. `missing_since` is when a reconciling read first missed it (null while it is found); the post is
 * deleted only once that is older than the grace period while the stream is caught up. A post deleted that way
 * keeps the date, which is also how a later reading tells it from one deleted by its own delete event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('missing_since', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('missing_since').execute();
}
