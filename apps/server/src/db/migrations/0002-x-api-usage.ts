import { sql, type Kysely } from 'kysely';

/** The X budget ledger: calls and reads per endpoint per UTC day (X bills per read). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('x_api_usage')
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('endpoint', 'text', (col) => col.notNull())
    .addColumn('calls', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('reads', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('x_api_usage_pk', ['day', 'endpoint'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('x_api_usage').execute();
}
