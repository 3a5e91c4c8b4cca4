import { sql, type Kysely } from 'kysely';

/**
 * The Mana engine (DESIGN §5): versioned programme rules, every author and tracked post seen, interactions with
 * official posts, the precomputed leaderboard (`mana_totals`) and the worker's job state. Handles and names
 * are searched case-insensitively by prefix (`text_pattern_ops` indices) and substring (pg_trgm indices).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('programme_rules')
    .addColumn('version', 'integer', (col) => col.primaryKey())
    .addColumn('rules', 'jsonb', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('authors')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('handle', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('avatar_url', 'text')
    .addColumn('first_tracked_at', 'timestamptz', (col) => col.notNull())
    .addColumn('disqualified', 'boolean', (col) => col.notNull().defaultTo(false))
    // Set when a post of the author changed; the totals job recomputes these authors and clears it.
    .addColumn('totals_dirty', 'boolean', (col) => col.notNull().defaultTo(true))
    // What scoring knew of the member behind the author (link time, disqualification, referral credits): when
    // the linking or referral side changes it, the totals job sees a different signature and recomputes.
    .addColumn('facts_signature', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('authors_handle_prefix_idx')
    .on('authors')
    .expression(sql`lower(handle) text_pattern_ops`)
    .execute();
  await db.schema
    .createIndex('authors_name_prefix_idx')
    .on('authors')
    .expression(sql`lower(display_name) text_pattern_ops`)
    .execute();
  await trigramIndexes(db);
  await db.schema
    .createIndex('authors_dirty_idx')
    .on('authors')
    .column('id')
    .where(sql.ref('totals_dirty'), '=', true)
    .execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('author_id', 'text', (col) => col.notNull().references('authors.id'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('original', 'quote')`))
    .addColumn('likes', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('replies', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('reposts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('quotes', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('live')
        .check(sql`status in ('live', 'deleted', 'protected')`),
    )
    .addColumn('over_limit', 'boolean', (col) => col.notNull().defaultTo(false))
    // final: metrics no longer refreshed; mana_fixed: its Mana was computed after that and never moves again.
    .addColumn('final', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('mana_fixed', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('multiplier', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('mana', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('first_seen_at', 'timestamptz', (col) => col.notNull())
    .addColumn('refreshed_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('posts_author_idx').on('posts').columns(['author_id', 'created_at']).execute();
  await db.schema
    .createIndex('posts_open_idx')
    .on('posts')
    .columns(['created_at', 'id'])
    .where(sql.ref('final'), '=', false)
    .execute();
  await db.schema
    .createIndex('posts_mana_idx')
    .on('posts')
    .columns(['mana desc', 'created_at desc'])
    .execute();
  await db.schema.createIndex('posts_created_idx').on('posts').column('created_at').execute();

  // Posts of the official accounts whose reposts and replies earn members interaction Mana.
  await db.schema
    .createTable('official_posts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('author_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('deleted', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('official_posts_created_idx')
    .on('official_posts')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('interactions')
    .addColumn('member_id', 'text', (col) => col.notNull())
    .addColumn('post_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('like', 'reply', 'repost')`))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'credited', 'void')`),
    )
    .addColumn('reward', 'integer', (col) => col.notNull())
    .addColumn('detected_at', 'timestamptz', (col) => col.notNull())
    .addColumn('check_after', 'timestamptz', (col) => col.notNull())
    .addColumn('settle_by', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    // Why a line was voided (gone at the re-check, post deleted, not confirmed in time).
    .addColumn('note', 'text')
    .addPrimaryKeyConstraint('interactions_pk', ['member_id', 'post_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('interactions_pending_idx')
    .on('interactions')
    .column('check_after')
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('mana_totals')
    // 'all' or the ISO week's Monday, 'YYYY-MM-DD'.
    .addColumn('period', 'text', (col) => col.notNull())
    .addColumn('author_id', 'text', (col) => col.notNull().references('authors.id'))
    .addColumn('mana', 'integer', (col) => col.notNull())
    .addColumn('posts', 'integer', (col) => col.notNull())
    .addColumn('likes', 'integer', (col) => col.notNull())
    .addColumn('replies', 'integer', (col) => col.notNull())
    .addColumn('reposts', 'integer', (col) => col.notNull())
    .addColumn('quotes', 'integer', (col) => col.notNull())
    .addColumn('first_tracked_at', 'timestamptz', (col) => col.notNull())
    .addColumn('rank', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('mana_totals_pk', ['period', 'author_id'])
    .execute();
  await db.schema.createIndex('mana_totals_rank_idx').on('mana_totals').columns(['period', 'rank']).execute();

  await db.schema
    .createTable('ingest_state')
    .addColumn('job', 'text', (col) => col.primaryKey())
    .addColumn('cursor', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('next_run_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'timestamptz')
    .addColumn('calls_spent', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('rate_limit_reset_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

/**
 * Trigram indices for the substring part of the leaderboard search (`lower(handle) like '%q%'`). pg_trgm is a
 * trusted extension (PostgreSQL 13+) and PGlite loads it (database.ts); where it cannot be created (no CREATE
 * privilege) the search still works, by scanning the period's rows. A savepoint keeps the migration's
 * transaction usable either way.
 */
async function trigramIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`savepoint mana_trgm`.execute(db);
  try {
    // In public (when it is not installed yet), so dropping an application schema never drops the extension.
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    const { rows } = await sql<{ schema: string }>`
      select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'
    `.execute(db);
    const ops = sql.raw(`${rows[0]?.schema ?? 'public'}.gin_trgm_ops`);
    await sql`create index authors_handle_trgm_idx on authors using gin (lower(handle) ${ops})`.execute(db);
    await sql`create index authors_name_trgm_idx on authors using gin (lower(display_name) ${ops})`.execute(
      db,
    );
    await sql`release savepoint mana_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint mana_trgm`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'ingest_state',
    'mana_totals',
    'interactions',
    'posts',
    'authors',
    'programme_rules',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
