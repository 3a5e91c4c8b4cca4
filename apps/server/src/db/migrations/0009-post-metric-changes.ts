import type { Kysely } from 'kysely';

/**
 * Per-post deltas for the totals job (docs/decisions/007-mana-engine.md): when a refresh changes only the
 * metrics of a live, open post, the post's metrics as the totals last counted them wait here (the first
 * change since then wins), and the totals job adds the difference to the author's rows instead of
 * recomputing every post of the author. A full recompute of an author drops that author's rows here.
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('post_metric_changes').execute();
}
