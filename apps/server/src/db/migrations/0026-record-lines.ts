import type { Kysely } from 'kysely';

/**
 * `stream_records.line`: the record's line in the weekly ledger (docs/ledger-format.md), canonical JSON and its
 * newline, written once when the record is stored (issue 30). Every field it holds (author, CID, time, kind, post,
 * address) is fixed for a record's id, so the line never changes; the ledger then joins stored text instead of
 * having the database write JSON for each of a week's million records (to_json and to_char were two thirds of
 * its work). About 330 bytes a record on Bluesky. Null in rows written before this migration (and by any writer
 * that does not set it): the ledger writes those as before (ledger-records.repository.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stream_records').addColumn('line', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stream_records').dropColumn('line').execute();
}
