import type { Kysely } from 'kysely';

/**
 * Networks read from an event stream (issue 12: Bluesky) see a like, repost, reply or quote once, as a record,
 * and later perhaps its deletion, which names only the record. `stream_records` keeps the records the
 * programme counted (their subject is a tracked or official post), so a deletion takes back exactly what its
 * record gave, and a record seen twice (a replay) counts once. The stream's cursor lives in `ingest_state`
 * (job `stream`), written in the same transaction as the batch it ends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stream_records')
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => col.notNull())
    .addColumn('author_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    // A post that replies and quotes is two records of one id.
    .addPrimaryKeyConstraint('stream_records_pkey', ['id', 'kind'])
    .execute();
  await db.schema
    .createIndex('stream_records_subject_idx')
    .on('stream_records')
    .column('subject_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stream_records').execute();
}
