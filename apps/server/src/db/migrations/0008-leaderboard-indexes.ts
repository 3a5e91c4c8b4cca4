import { sql, type Kysely } from 'kysely';

/**
 * Indices for the leaderboard at scale (docs/benchmarks.md).
 * - The board's order (period, Mana desc, first tracked post, author id) replaces the (period, rank) index:
 *   pages walk it, the rerank's window reads it without sorting, and with `rank` in no index a rerank that
 *   shifts thousands of ranks writes heap-only tuples (no index entries); the table keeps room on each page for
 *   them (fillfactor).
 * - The disqualified authors (a handful): a period's total is its last rank less those still ranked.
 * - An author's rows across periods: the totals job replaces a batch of authors' rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('mana_totals_order_idx')
    .on('mana_totals')
    .columns(['period', 'mana desc', 'first_tracked_at', 'author_id'])
    .execute();
  await db.schema.dropIndex('mana_totals_rank_idx').execute();
  await sql`alter table mana_totals set (fillfactor = 70)`.execute(db);
  await db.schema
    .createIndex('authors_disqualified_idx')
    .on('authors')
    .column('id')
    .where(sql.ref('disqualified'), '=', true)
    .execute();
  await db.schema.createIndex('mana_totals_author_idx').on('mana_totals').column('author_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mana_totals_author_idx').execute();
  await db.schema.dropIndex('authors_disqualified_idx').execute();
  await sql`alter table mana_totals reset (fillfactor)`.execute(db);
  await db.schema.createIndex('mana_totals_rank_idx').on('mana_totals').columns(['period', 'rank']).execute();
  await db.schema.dropIndex('mana_totals_order_idx').execute();
}
