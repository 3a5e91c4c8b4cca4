import { sql, type Kysely } from 'kysely';

/**
 * Fairness signals (issue 13):
 * - `engagement_edges`: who replied to or quoted which post, as a polling network's search shows them (the event
 *   stream keeps the same facts in `stream_records`); the detector builds its interaction graph from both.
 * - `fairness_flags`: the detector's advice, one row per member and kind (ring, referral chain, spike), with why
 *   and the evidence; recomputed by the fairness job, never a penalty by itself. An operator's review is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('engagement_edges')
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('engagement_edges_pkey', ['id', 'kind'])
    .execute();
  await db.schema
    .createIndex('engagement_edges_created_idx')
    .on('engagement_edges')
    .column('created_at')
    .execute();
  await db.schema
    .createTable('fairness_flags')
    .addColumn('subject_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('handle', 'text', (col) => col.notNull())
    .addColumn('score', 'double precision', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('evidence', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('first_flagged_at', 'timestamptz', (col) => col.notNull())
    .addColumn('computed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('reviewed_by', 'text')
    .addColumn('review_note', 'text')
    .addPrimaryKeyConstraint('fairness_flags_pkey', ['subject_id', 'kind'])
    .execute();
  await db.schema.createIndex('fairness_flags_score_idx').on('fairness_flags').columns(['score']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fairness_flags').execute();
  await db.schema.dropTable('engagement_edges').execute();
}
