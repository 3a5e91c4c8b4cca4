import { sql, type Kysely } from 'kysely';

/**
 * The data side of issue 14 (docs/benchmarks.md):
 * - Per-post deltas for the totals job (docs/decisions/007-mana-engine.md): when a refresh changes only the
 *   metrics of a live, open post, the post's metrics as the totals last counted them wait here (the first
 *   change since then wins), and the totals job adds the difference to the author's rows instead of
 *   recomputing every post of the author. A full recompute of an author drops that author's rows here.
 * - The search's trigram indices without GIN's pending list: with `fastupdate` on, every author row written
 *   lands in an unsorted list that each search reads through in full until a vacuum merges it (13k entries,
 *   ~400 pages read per search after one rebuild of 100k authors); off, a search reads a few dozen pages.
 * - No index on the totals flag: it made every flag change (each author, every totals run) a non-HOT update
 *   that added entries to all seven indices of authors, the trigram ones included. The totals job finds the
 *   flagged authors by scanning authors instead (one scan per batch of 500).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('post_metric_changes')
    .addColumn('post_id', 'text', (col) => col.primaryKey())
    .addColumn('author_id', 'text', (col) => col.notNull())
    .addColumn('likes', 'integer', (col) => col.notNull())
    .addColumn('replies', 'integer', (col) => col.notNull())
    .addColumn('reposts', 'integer', (col) => col.notNull())
    .addColumn('quotes', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('post_metric_changes_author_idx')
    .on('post_metric_changes')
    .column('author_id')
    .execute();
  await db.schema.dropIndex('authors_dirty_idx').execute();
  // The trigram indices exist only where pg_trgm could be created (migration 0005).
  for (const name of ['authors_handle_trgm_idx', 'authors_name_trgm_idx']) {
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(
      db,
    );
    if (!rows[0]?.found) continue;
    await sql`alter index ${sql.ref(name)} set (fastupdate = off)`.execute(db);
    // Turning it off keeps what is already pending: merge that into the index now.
    await sql`select gin_clean_pending_list(${name}::regclass)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['authors_handle_trgm_idx', 'authors_name_trgm_idx']) {
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(
      db,
    );
    if (rows[0]?.found) await sql`alter index ${sql.ref(name)} reset (fastupdate)`.execute(db);
  }
  await db.schema
    .createIndex('authors_dirty_idx')
    .on('authors')
    .column('id')
    .where(sql.ref('totals_dirty'), '=', true)
    .execute();
  await db.schema.dropTable('post_metric_changes').execute();
}
