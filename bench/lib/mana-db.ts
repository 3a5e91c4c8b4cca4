// Seeded benchmark databases for the Mana engine: N authors / M tracked posts over five weeks with engagement,
// post lines, totals and ranks. Rows are generated in SQL (bench data, not the demo); every post's line and
// every total is then computed by the server's own totals code (rebuildAllTotals, the `mana:rebuild` path).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../apps/server/src/db/database';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { migrations } from '../../apps/server/src/db/migrations/index';
import type { Database } from '../../apps/server/src/db/schema';
import { weekKey } from '../../apps/server/src/modules/mana/scoring';
import { rebuildAllTotals } from '../../apps/server/src/modules/mana/totals.service';
import { activeRules } from '../../apps/server/src/modules/programme/programme.service';

export type SeedSize = { authors: number; posts: number };
export type BenchDbKind = 'pglite' | 'postgres';

const DAY_MS = 86_400_000;
/** Posts spread over this many days before `now` (five ISO weeks and a bit). */
const SPAN_DAYS = 35;
/**
 * Bump when the generated data changes, so cached seeds are rebuilt; the last migration's name is part of the
 * key too (a seed made before a new migration is made again rather than migrated out of order).
 */
const SEED_VERSION = 2;
const SCHEMA_KEY = (Object.keys(migrations).at(-1) ?? 'none').slice(0, 4);

export const BENCH_PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
const ADMIN_PG_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const label = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0
    ? `${n / 1_000_000}m`
    : n >= 1000
      ? `${Math.round(n / 1000)}k`
      : String(n);

const log = (message: string) => console.log(`  [seed] ${message}`);

/**
 * Fills an empty, migrated database: authors and posts in SQL batches, then every total through the real
 * rebuild. `now` decides the weeks. Returns how long the rebuild took.
 */
export async function seedMana(
  db: Kysely<Database>,
  size: SeedSize,
  now: Date,
): Promise<{ rebuildMs: number }> {
  const active = await activeRules(db);
  const started = performance.now();
  const nowIso = now.toISOString();
  const authorBatch = 50_000;
  for (let from = 1; from <= size.authors; from += authorBatch) {
    const to = Math.min(size.authors, from + authorBatch - 1);
    // Handles like mb_2n9_123 (base 36 of the index and a scrambled suffix); names 'Bench Author <i>'.
    await sql`
      insert into authors (id, handle, display_name, avatar_url, first_tracked_at, totals_dirty, updated_at)
      select (1000000000 + i)::text,
        'mb_' || ${sql.raw(base36Sql('i'))} || '_' || ((i::bigint * 7919) % 1000)::text,
        'Bench Author ' || i::text,
        'https://pbs.twimg.com/profile_images/' || i::text || '/a_normal.jpg',
        ${nowIso}::timestamptz, true, ${nowIso}::timestamptz
      from generate_series(${from}::int, ${to}::int) as g(i)
    `.execute(db);
    log(`authors ${to}/${size.authors}`);
  }
  const postBatch = 100_000;
  const spanMs = SPAN_DAYS * DAY_MS;
  for (let from = 1; from <= size.posts; from += postBatch) {
    const to = Math.min(size.posts, from + postBatch - 1);
    // Authors skewed (a few prolific, a long tail); engagement from hashes of the post index, so every seed of
    // the same size is identical. Posts older than the refresh window are final.
    await sql`
      insert into posts (id, author_id, text, created_at, kind, likes, replies, reposts, quotes, final,
        first_seen_at, refreshed_at)
      select (3000000000000 + i)::text,
        (1000000000 + 1 + floor(${size.authors}::float8 * power(abs(hashint4(i)) / 2147483648.0, 2))::int)::text,
        'gm builders #ManaBoard post ' || i::text,
        t.at, case when i % 10 = 0 then 'quote' else 'original' end,
        abs(hashint4(i * 3)) % 60, abs(hashint4(i * 5)) % 12, abs(hashint4(i * 7)) % 9,
        abs(hashint4(i * 11)) % 4,
        t.at < ${nowIso}::timestamptz - interval '7 days', t.at, ${nowIso}::timestamptz
      from generate_series(${from}::int, ${to}::int) as g(i),
        lateral (select ${nowIso}::timestamptz - (((i::bigint * 7919 * 1009) % ${spanMs}::bigint) * interval '1 millisecond') as at) as t
    `.execute(db);
    log(`posts ${to}/${size.posts}`);
  }
  await sql`
    update authors a set first_tracked_at = p.first from (
      select author_id, min(created_at) as first from posts group by author_id
    ) p where p.author_id = a.id
  `.execute(db);
  // Authors without a post never rank (as in the worker: an author exists because a post of theirs was seen).
  await sql`delete from authors a where not exists (select 1 from posts p where p.author_id = a.id)`.execute(
    db,
  );
  await sql`analyze`.execute(db);
  log(`rows generated in ${((performance.now() - started) / 1000).toFixed(1)} s; computing every total…`);
  const rebuildStarted = performance.now();
  let reported = performance.now();
  const authors = await rebuildAllTotals(db, active, now, (done) => {
    if (performance.now() - reported < 10_000) return;
    reported = performance.now();
    log(`totals: ${done} authors done (${((reported - rebuildStarted) / 1000).toFixed(0)} s)`);
  });
  const rebuildMs = performance.now() - rebuildStarted;
  await sql`analyze`.execute(db);
  log(`totals of ${authors} authors computed by rebuildAllTotals in ${(rebuildMs / 1000).toFixed(1)} s`);
  return { rebuildMs };
}

/** `to_base36(i)` in SQL (PostgreSQL has no such function). */
function base36Sql(column: string): string {
  // Up to 7 base-36 digits (78 billion): enough for any bench size.
  const digits = Array.from(
    { length: 7 },
    (_, k) =>
      `substr('0123456789abcdefghijklmnopqrstuvwxyz', ((${column}::bigint / ${36 ** (6 - k)}) % 36)::int + 1, 1)`,
  );
  return `ltrim(${digits.join(' || ')}, '0')`;
}

/** Where a seeded PGlite directory of this size and week is kept between rounds and runs. */
export function pgliteCacheDir(size: SeedSize, now: Date): string {
  return path.join(
    process.env.BENCH_CACHE_DIR ?? path.join(os.tmpdir(), 'manaboard-bench'),
    `pglite-v${SEED_VERSION}-m${SCHEMA_KEY}-${label(size.authors)}-${label(size.posts)}-${weekKey(now)}`,
  );
}

/** The PostgreSQL schema (in the `bench` database) holding a seeded world of this size. */
export function pgSchemaOf(size: SeedSize): string {
  return `mana_v${SEED_VERSION}_m${SCHEMA_KEY}_${label(size.authors)}_${label(size.posts)}`;
}

/** What a bench server needs to open a seeded database: a PGlite DATA_DIR or a PostgreSQL URL and schema. */
export type SeededDb =
  { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; schema: string };

/** Opens a seeded bench database (as the server would). */
export async function openSeeded(seeded: SeededDb, poolSize?: number): Promise<DatabaseHandle> {
  return seeded.kind === 'pglite'
    ? openDatabase({ kind: 'pglite', dataDir: seeded.dataDir })
    : openDatabase({
        kind: 'postgres',
        url: seeded.url,
        schema: seeded.schema,
        ...(poolSize ? { poolSize } : {}),
      });
}

/** Creates the `bench` database on first use. */
export async function ensureBenchDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  try {
    const name = new URL(BENCH_PG_URL).pathname.slice(1);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
}

async function pgQuery(text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: BENCH_PG_URL });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** Drops a seeded PostgreSQL schema (the bench cleans up after itself unless BENCH_KEEP=1). */
export async function dropPgSeed(size: SeedSize): Promise<void> {
  await pgQuery(`drop schema if exists ${pg.escapeIdentifier(pgSchemaOf(size))} cascade`);
}

/**
 * A seeded database of this size, seeding it when missing: PGlite in a cached directory (reused while the ISO
 * week lasts), PostgreSQL in a schema of the `bench` database (reused when it holds a finished seed).
 */
export async function ensureSeeded(kind: BenchDbKind, size: SeedSize, now = new Date()): Promise<SeededDb> {
  if (kind === 'pglite') {
    const dataDir = pgliteCacheDir(size, now);
    const done = path.join(dataDir, 'seeded.json');
    if (await exists(done)) return { kind, dataDir };
    await fs.rm(dataDir, { recursive: true, force: true });
    log(`PGlite ${label(size.authors)} authors / ${label(size.posts)} posts into ${dataDir}`);
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await migrateToLatest(handle.db);
      const { rebuildMs } = await seedMana(handle.db, size, now);
      await fs.writeFile(done, JSON.stringify({ ...size, rebuildMs, at: now.toISOString() }));
    } finally {
      await handle.close();
    }
    return { kind, dataDir };
  }
  await ensureBenchDatabase();
  const schema = pgSchemaOf(size);
  const seeded: SeededDb = { kind, url: BENCH_PG_URL, schema };
  const { rowCount } = await pgQuery(
    `select 1 from information_schema.tables where table_schema = $1 and table_name = 'bench_seeded'`,
    [schema],
  );
  if (rowCount) {
    const { rows } = await pgQuery(`select week from ${pg.escapeIdentifier(schema)}.bench_seeded`);
    if ((rows[0] as { week?: string } | undefined)?.week === weekKey(now)) return seeded;
  }
  log(`PostgreSQL ${label(size.authors)} authors / ${label(size.posts)} posts into schema ${schema}`);
  await dropPgSeed(size);
  await pgQuery(`create schema ${pg.escapeIdentifier(schema)}`);
  const handle = await openSeeded(seeded, 4);
  try {
    await migrateToLatest(handle.db);
    await seedMana(handle.db, size, now);
    await sql`create table bench_seeded (week text not null)`.execute(handle.db);
    await sql`insert into bench_seeded values (${weekKey(now)})`.execute(handle.db);
  } finally {
    await handle.close();
  }
  return seeded;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
