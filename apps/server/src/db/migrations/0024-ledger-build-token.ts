import type { Kysely } from 'kysely';

/**
 * `ledgers.build_token`: a random token of the process building an edition (null once stored, and in rows written
 * before this migration). A build writes its chunks and makes its edition `stored` only while its row still holds
 * its token, so a build whose row was dropped as stale, or a second builder of the same (week, edition), can never
 * mix its chunks into another build's edition.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledgers').addColumn('build_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledgers').dropColumn('build_token').execute();
}
