import { sql, type Kysely } from 'kysely';

/**
 * The operator console's member side and worker control (issue 13).
 *
 * - `authors` keep why, by whom and when they were disqualified, so the member's card can say so.
 * - `appeals`: one per disqualification (its `disqualified_at`), the member's text and the operator's answer.
 * - `worker_control`: one row (`id = 'worker'`) the worker leader reads between runs: paused or not, by whom.
 * - `job_run_requests`: "run this job now" requests; the leader (maybe another process) picks each up once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('authors')
    .addColumn('disqualified_reason', 'text')
    .addColumn('disqualified_by', 'text')
    .addColumn('disqualified_at', 'timestamptz')
    .execute();
  // Authors disqualified before this migration: their disqualification gets a date, so they may appeal it.
  await sql`update authors set disqualified_at = now() where disqualified`.execute(db);

  await db.schema
    .createTable('appeals')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('author_id', 'text', (col) => col.notNull())
    // Which disqualification this appeal answers: a member requalified and disqualified again may appeal again.
    .addColumn('disqualified_at', 'timestamptz', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('answer', 'text')
    .addColumn('answered_by', 'text')
    .addColumn('answered_at', 'timestamptz')
    .addUniqueConstraint('appeals_one_per_disqualification', ['author_id', 'disqualified_at'])
    .execute();
  await db.schema
    .createIndex('appeals_open_idx')
    .on('appeals')
    .column('created_at')
    .where(sql.ref('answered_at'), 'is', null)
    .execute();

  // What the console shows of each job's last run besides when and its error: how long it took, what it did.
  await db.schema
    .alterTable('ingest_state')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_items', 'jsonb')
    .execute();

  await db.schema
    .createTable('worker_control')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('paused', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('job_run_requests')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('job', 'text', (col) => col.notNull())
    .addColumn('requested_by', 'text', (col) => col.notNull())
    .addColumn('requested_at', 'timestamptz', (col) => col.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('job_run_requests_pending_idx')
    .on('job_run_requests')
    .column('requested_at')
    .where(sql.ref('started_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_run_requests').execute();
  await db.schema.dropTable('worker_control').execute();
  await db.schema.dropTable('appeals').execute();
  await db.schema
    .alterTable('ingest_state')
    .dropColumn('last_duration_ms')
    .dropColumn('last_items')
    .execute();
  await db.schema
    .alterTable('authors')
    .dropColumn('disqualified_reason')
    .dropColumn('disqualified_by')
    .dropColumn('disqualified_at')
    .execute();
}
