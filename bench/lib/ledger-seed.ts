// A week of a million records for the ledger bench, in a PostgreSQL schema of the `bench` database (or a PGlite
// directory): members, their posts of one ISO week and the counted like/repost/reply/quote records behind every
// count, written with generate_series (bulk, in the database); then every post's line through the engine's own
// rebuild, so the ledger reads what the engine computed.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/database';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import type { Database } from '../../apps/server/src/db/schema';
import { madeRecordLine } from '../../apps/server/src/modules/ledger/ledger-records.repository';
import { ledgerWeek, weekAt, type LedgerWeek } from '../../apps/server/src/modules/ledger/ledger-week';
import { rebuildAllTotals } from '../../apps/server/src/modules/mana/totals.service';
import { activeRules } from '../../apps/server/src/modules/programme/programme.service';
import { BENCH_PG_URL, ensureBenchDatabase, openSeeded, type SeededDb } from './mana-db';

export type LedgerSize = { members: number; postsPerMember: number; records: number };

const DAY_MS = 86_400_000;
const log = (message: string) => console.log(`  [ledger seed] ${message}`);

/** The week the bench reads: three weeks back (in range, never closed by the bench server, which runs no worker). */
export function benchWeek(now = new Date()): LedgerWeek {
  return ledgerWeek(weekAt(new Date(now.getTime() - 21 * DAY_MS)).week);
}

async function seed(db: Kysely<Database>, size: LedgerSize, week: LedgerWeek): Promise<void> {
  const posts = size.members * size.postsPerMember;
  const from = week.from.toISOString();
  // One post in a hundred is large (a tenth of the records), the rest share the others: both read paths run.
  const large = Math.max(1, Math.floor(posts / 100));
  const inLarge = Math.floor(size.records / 10 / large);
  const inSmall = Math.floor((size.records - inLarge * large) / (posts - large));
  await sql`
    insert into authors (id, handle, display_name, avatar_url, first_tracked_at, updated_at)
    select 'did:plc:bench' || lpad(i::text, 16, '0'), 'member' || i || '.bench.test', 'Member ' || i, null,
      ${from}::timestamptz + (i % 1000) * interval '1 second', now()
    from generate_series(1, ${sql.lit(size.members)}) as i
  `.execute(db);
  await sql`
    insert into posts (id, author_id, text, created_at, kind, likes, replies, reposts, quotes, status, final,
      first_seen_at, refreshed_at)
    select 'at://did:plc:bench' || lpad((p % ${sql.lit(size.members)} + 1)::text, 16, '0') || '/app.bsky.feed.post/3p' || lpad(p::text, 11, '0'),
      'did:plc:bench' || lpad((p % ${sql.lit(size.members)} + 1)::text, 16, '0'), '#ManaBoard bench',
      ${from}::timestamptz + (p * 97 % 604000) * interval '1 second', 'original', 0, 0, 0, 0, 'live', true, now(), now()
    from generate_series(0, ${sql.lit(posts - 1)}) as p
  `.execute(db);
  // Records: n-th record of post p; kinds in a 6:2:1:1 mix; every one with an author, a CID and a time, and its
  // ledger line written with it, as the stream stores it (migration 0026; the same bytes as the ledger would make,
  // ledger-records.repository.test.ts). Written in the insert, not by an update after it: an update leaves every
  // row twice in the table until a vacuum, and the week's aggregation read it 1.7x slower so.
  await sql`
    insert into stream_records (id, kind, subject_id, author_id, created_at, cid, state, source, line)
    select id, kind, subject_id, author_id, created_at, cid, 'counted', 'stream', ${madeRecordLine}
    from (
      select 'at://did:plc:fan' || lpad((r % 50000)::text, 20, '0') || '/app.bsky.feed.'
          || (case when r % 10 < 6 then 'like' when r % 10 < 8 then 'repost' else 'post' end) || '/3r' || lpad(r::text, 11, '0') as id,
        case when r % 10 < 6 then 'like' when r % 10 < 8 then 'repost' when r % 10 = 8 then 'reply' else 'quote' end as kind,
        p.id as subject_id, 'did:plc:fan' || lpad((r % 50000)::text, 20, '0') as author_id,
        p.created_at + (r % 3600) * interval '1 second' as created_at,
        'bafyreib' || md5(r::text) || substr(md5((r + 1)::text), 1, 19) as cid
      from (select id, created_at, row_number() over (order by id) - 1 as n from posts) p,
        lateral generate_series(0, case when p.n < ${sql.lit(large)} then ${sql.lit(inLarge)} else ${sql.lit(inSmall)} end - 1) as g,
        lateral (select p.n * 1000000 + g as r) as x
    ) as seeded
  `.execute(db);
  await sql`
    update posts set likes = c.likes, reposts = c.reposts, replies = c.replies, quotes = c.quotes
    from (select subject_id,
        count(*) filter (where kind = 'like') as likes, count(*) filter (where kind = 'repost') as reposts,
        count(*) filter (where kind = 'reply') as replies, count(*) filter (where kind = 'quote') as quotes
      from stream_records group by subject_id) c
    where posts.id = c.subject_id
  `.execute(db);
  await sql`analyze`.execute(db);
  await rebuildAllTotals(db, await activeRules(db), new Date());
}

/** The seeded database (made when missing), its week and how many records the week holds. */
export async function ensureLedgerSeed(
  kind: 'pglite' | 'postgres',
  size: LedgerSize,
): Promise<{ seeded: SeededDb; week: LedgerWeek; records: number }> {
  const week = benchWeek();
  const key = `ledger_v4_${week.week.replace('-', '_').toLowerCase()}_${size.members}_${size.records}`;
  const seeded: SeededDb =
    kind === 'pglite'
      ? {
          kind,
          dataDir: path.join(process.env.BENCH_CACHE_DIR ?? path.join(os.tmpdir(), 'manaboard-bench'), key),
        }
      : { kind, url: BENCH_PG_URL, schema: key };
  if (kind === 'postgres') {
    await ensureBenchDatabase();
    const client = new pg.Client({ connectionString: BENCH_PG_URL });
    await client.connect();
    const { rowCount } = await client.query(
      `select 1 from information_schema.tables where table_schema = $1 and table_name = 'bench_seeded'`,
      [key],
    );
    if (!rowCount) {
      await client.query(`drop schema if exists ${pg.escapeIdentifier(key)} cascade`);
      await client.query(`create schema ${pg.escapeIdentifier(key)}`);
    }
    await client.end();
    if (rowCount) return { seeded, week, records: await countRecords(seeded) };
  } else if (
    seeded.kind === 'pglite' &&
    (await fs.stat(path.join(seeded.dataDir, 'seeded.json')).catch(() => null))
  ) {
    return { seeded, week, records: await countRecords(seeded) };
  }
  log(
    `${size.members} members, ${size.members * size.postsPerMember} posts, ~${size.records} records in ${week.week} (${kind})`,
  );
  const started = performance.now();
  const handle =
    kind === 'pglite'
      ? await openDatabase({ kind, dataDir: (seeded as { dataDir: string }).dataDir })
      : await openSeeded(seeded, 4);
  try {
    await migrateToLatest(handle.db);
    await seed(handle.db, size, week);
    if (kind === 'postgres')
      await sql`create table bench_seeded (at timestamptz not null default now())`.execute(handle.db);
    else await fs.writeFile(path.join((seeded as { dataDir: string }).dataDir, 'seeded.json'), '{}');
  } finally {
    await handle.close();
  }
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { seeded, week, records: await countRecords(seeded) };
}

async function countRecords(seeded: SeededDb): Promise<number> {
  const handle = await openSeeded(seeded, 1);
  try {
    const row = await handle.db
      .selectFrom('stream_records')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await handle.close();
  }
}
