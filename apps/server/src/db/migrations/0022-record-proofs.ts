import type { Kysely } from 'kysely';

/**
 * Records deleted since (issue 30, docs/ledger-format.md): when the stream counts a record, the programme keeps its
 * repository proof (a CAR of the author's signed commit, the tree's path to the record and the record itself), so
 * a verifier can tell a like deleted after the week closed from one that never existed. One row per stored record
 * (`record_id`, `kind`: a post that replies and quotes is two records of one proof), dropped with the record's row
 * (the foreign key cascades: void records are pruned, counted ones kept for good).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('record_proofs')
    .addColumn('record_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('cid', 'text', (col) => col.notNull())
    .addColumn('car', 'bytea', (col) => col.notNull())
    .addColumn('captured_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('record_proofs_pkey', ['record_id', 'kind'])
    .addForeignKeyConstraint(
      'record_proofs_record_fkey',
      ['record_id', 'kind'],
      'stream_records',
      ['id', 'kind'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('record_proofs').execute();
}
