import { sql, type Kysely } from 'kysely';

/**
 * The weekly ledger (issue 30, docs/ledger-format.md, ADR 014).
 *
 * - `ledgers`: one row per edition of a closed week. It is written `building` first, its bytes go to
 *   `ledger_chunks` a piece at a time, and only the last transaction makes it `stored` with its hash and length:
 *   a crash mid-build leaves a `building` row nobody serves, which the next build deletes. A stored edition is
 *   never rewritten; a correction is the next edition. `published_*` is the official account's post of its hash,
 *   and `publish_*` the retries until it is posted.
 * - `ledger_chunks`: the edition's exact bytes as one gzip stream cut in pieces of about 1 MB (`seq` from 0): a
 *   week of a million records is stored and served without holding it whole, and the pieces end to end are the
 *   gzip answer itself. `gzip_length` on the edition is their total.
 * - `stream_records_ledger_idx`: a post's counted records by kind then address, in code-unit order (collation
 *   "C"), the order the ledger writes them in, so it reads them a page at a time without sorting.
 * - `posts.rules_version` is filled for posts scored before the engine wrote it, with the version in force now
 *   (migration 0019 says a null reads as the active version; written down once, later rule changes do not move it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledgers')
    .addColumn('week', 'text', (col) => col.notNull())
    .addColumn('edition', 'integer', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('building'))
    .addColumn('network', 'text', (col) => col.notNull())
    .addColumn('closed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text')
    .addColumn('byte_length', 'bigint')
    .addColumn('gzip_length', 'bigint')
    .addColumn('members', 'integer')
    .addColumn('mana', 'bigint')
    .addColumn('published_uri', 'text')
    .addColumn('published_cid', 'text')
    .addColumn('published_at', 'timestamptz')
    .addColumn('published_url', 'text')
    .addColumn('publish_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('publish_error', 'text')
    .addColumn('publish_next_at', 'timestamptz')
    .addPrimaryKeyConstraint('ledgers_pkey', ['week', 'edition'])
    .execute();
  await db.schema
    .createTable('ledger_chunks')
    .addColumn('week', 'text', (col) => col.notNull())
    .addColumn('edition', 'integer', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('data', 'bytea', (col) => col.notNull())
    .addColumn('raw_length', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('ledger_chunks_pkey', ['week', 'edition', 'seq'])
    .addForeignKeyConstraint(
      'ledger_chunks_ledger_fkey',
      ['week', 'edition'],
      'ledgers',
      ['week', 'edition'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create index stream_records_ledger_idx on stream_records (subject_id, kind, id collate "C")
    where state = 'counted'`.execute(db);
  await sql`update posts set rules_version = (select max(version) from programme_rules)
    where rules_version is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index stream_records_ledger_idx`.execute(db);
  await db.schema.dropTable('ledger_chunks').execute();
  await db.schema.dropTable('ledgers').execute();
}
