import type { Kysely } from 'kysely';

/**
 * Mana anyone can check (issue 30, DESIGN §9): every point is traced to a public record.
 *
 * - `stream_records` keeps each record's content hash (`cid`: null on X, where records have none) and its state:
 *   `counted`, or `void` with the reason (`void_reason`: deleted, self, duplicate, …) and when (`void_at`). A
 *   deleted record is kept as void instead of removed, so a post's line can show it, and a ledger that counted it
 *   before it was deleted still names it. `source` says who saw it: `stream` or `appview` (read from the
 *   AppView's lists when the refresh raised a count the stream missed).
 * - `posts.untraced_*`: points a post's counts hold without a record the programme can name (an X count, or an
 *   AppView count whose list could not be read in full); the ledger carries them as "not traceable".
 * - `posts.rules_version`: the rules version the post's Mana was last computed with (null: before this
 *   migration, read as the active version).
 * - `interactions.record_id` / `record_cid`: the member's like, reply or repost record behind an interaction line.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('stream_records')
    .addColumn('cid', 'text')
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('counted'))
    .addColumn('void_reason', 'text')
    .addColumn('void_at', 'timestamptz')
    .addColumn('source', 'text', (col) => col.notNull().defaultTo('stream'))
    .execute();
  // A post's records, newest first, a page at a time (the breakdown's records page and the ledger).
  await db.schema
    .createIndex('stream_records_subject_time_idx')
    .on('stream_records')
    .columns(['subject_id', 'created_at desc', 'id'])
    .execute();
  await db.schema.dropIndex('stream_records_subject_idx').execute();
  await db.schema
    .alterTable('posts')
    .addColumn('untraced_likes', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('untraced_replies', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('untraced_reposts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('untraced_quotes', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('rules_version', 'integer')
    .execute();
  await db.schema
    .alterTable('interactions')
    .addColumn('record_id', 'text')
    .addColumn('record_cid', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('interactions').dropColumn('record_id').dropColumn('record_cid').execute();
  await db.schema
    .alterTable('posts')
    .dropColumn('untraced_likes')
    .dropColumn('untraced_replies')
    .dropColumn('untraced_reposts')
    .dropColumn('untraced_quotes')
    .dropColumn('rules_version')
    .execute();
  await db.schema
    .createIndex('stream_records_subject_idx')
    .on('stream_records')
    .column('subject_id')
    .execute();
  await db.schema.dropIndex('stream_records_subject_time_idx').execute();
  await db.schema
    .alterTable('stream_records')
    .dropColumn('cid')
    .dropColumn('state')
    .dropColumn('void_reason')
    .dropColumn('void_at')
    .dropColumn('source')
    .execute();
}
