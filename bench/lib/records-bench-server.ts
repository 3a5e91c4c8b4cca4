// The real server over a database holding one post with many records (issue 30's records page), plus a bare JSON
// route on the same instance: an embedded PGlite in DATA_DIR, or with BENCH_PG_URL a fresh PostgreSQL schema
// (dropped on exit). BENCH_RECORDS records (default 100,000: likes, reposts and replies by as many accounts,
// a tenth of them kept as authors with handles, every twentieth deleted). Sends { postId, authorId } when ready.
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/composition/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { openDatabase } from '../../apps/server/src/db/database';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { World } from '../../packages/x-sim/src/index';

const records = Number(process.env.BENCH_RECORDS ?? 100_000);
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'warn',
  SOCIAL_NETWORK: 'bluesky',
  PUBLIC_ORIGIN: 'http://127.0.0.1:1',
});
const pgUrl = process.env.BENCH_PG_URL;
const schema = `records_bench_${process.pid}`;
async function pgAdmin(statement: string) {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
if (pgUrl) await pgAdmin(`create schema ${schema}`);
const database = await openDatabase(
  pgUrl ? { kind: 'postgres', url: pgUrl, schema } : { kind: 'pglite', dataDir: process.env.DATA_DIR ?? '' },
);
await migrateToLatest(database.db);
const authorId = 'did:plc:benchauthor';
const postId = `at://${authorId}/app.bsky.feed.post/3kbenchpost`;
const now = Date.now();
await sql`
  insert into authors (id, handle, display_name, avatar_url, first_tracked_at, updated_at)
  values (${authorId}, 'bench.test', 'Bench', null, ${new Date(now - 86_400_000)}, ${new Date(now)})
`.execute(database.db);
await sql`
  insert into posts (id, author_id, text, created_at, kind, likes, replies, reposts, quotes, first_seen_at, refreshed_at)
  values (${postId}, ${authorId}, '#ManaBoard', ${new Date(now - 86_400_000)}, 'original', 0, 0, 0, 0,
    ${new Date(now)}, ${new Date(now)})
`.execute(database.db);
// Records by did:plc:fanN, newest last; kinds in turn; CIDs of a realistic length.
await sql`
  insert into stream_records (id, kind, subject_id, author_id, created_at, cid, state, void_reason, void_at)
  select 'at://did:plc:fan' || i || '/app.bsky.feed.' || (case i % 3 when 0 then 'like' when 1 then 'repost' else 'post' end)
      || '/3k' || lpad(i::text, 11, '0'),
    case i % 3 when 0 then 'like' when 1 then 'repost' else 'reply' end,
    ${postId}, 'did:plc:fan' || i, ${new Date(now - 86_400_000)}::timestamptz + (i || ' ms')::interval,
    'bafyreib' || md5(i::text) || 'abcdefghij',
    case when i % 20 = 0 then 'void' else 'counted' end,
    case when i % 20 = 0 then 'deleted' end,
    case when i % 20 = 0 then ${new Date(now)}::timestamptz end
  from generate_series(1, ${records}) as i
`.execute(database.db);
await sql`
  insert into authors (id, handle, display_name, avatar_url, first_tracked_at, updated_at)
  select 'did:plc:fan' || i, 'fan' || i || '.test', 'Fan', null, ${new Date(now)}, ${new Date(now)}
  from generate_series(10, ${records}, 10) as i
`.execute(database.db);
await sql`
  update posts set likes = (select count(*) from stream_records where subject_id = ${postId} and kind = 'like' and state = 'counted'),
    reposts = (select count(*) from stream_records where subject_id = ${postId} and kind = 'repost' and state = 'counted'),
    replies = (select count(*) from stream_records where subject_id = ${postId} and kind = 'reply' and state = 'counted')
`.execute(database.db);
await sql`analyze`.execute(database.db);
const app = await buildApp({ config, database, simulatedWorld: new World(now) });
app.get('/bench/bare', async () => ({ success: true, data: { hello: 'world' } }));
await app.listen({ port: config.port, host: '127.0.0.1' });
process.send?.({ postId, authorId, records });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => (pgUrl ? pgAdmin(`drop schema ${schema} cascade`) : undefined))
    .then(() => process.exit(0));
});
