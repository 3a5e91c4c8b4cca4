import { sql } from 'kysely';
import { openDatabase } from './apps/server/src/db/database';
import { migrateToLatest } from './apps/server/src/db/migrate';
import { postRecords, findPost } from './apps/server/src/modules/records/records.repository';
const database = await openDatabase({ kind: 'pglite' });
await migrateToLatest(database.db);
const postId = 'at://did:plc:benchauthor/app.bsky.feed.post/3kbenchpost';
const now = Date.now();
await sql`insert into authors (id, handle, display_name, avatar_url, first_tracked_at, updated_at) values ('did:plc:benchauthor', 'b', 'b', null, now(), now())`.execute(database.db);
await sql`insert into posts (id, author_id, text, created_at, kind, likes, replies, reposts, quotes, first_seen_at, refreshed_at) values (${postId}, 'did:plc:benchauthor', 'x', now(), 'original', 0,0,0,0, now(), now())`.execute(database.db);
await sql`
  insert into stream_records (id, kind, subject_id, author_id, created_at, cid)
  select 'at://did:plc:fan' || i || '/app.bsky.feed.like/3k' || lpad(i::text, 11, '0'), 'like', ${postId}, 'did:plc:fan' || i, now() + (i || ' ms')::interval, 'bafy' || md5(i::text)
  from generate_series(1, 100000) as i`.execute(database.db);
await sql`insert into authors (id, handle, display_name, avatar_url, first_tracked_at, updated_at) select 'did:plc:fan' || i, 'f', 'f', null, now(), now() from generate_series(10, 100000, 10) as i`.execute(database.db);
await sql`analyze`.execute(database.db);
const q = database.db.selectFrom('stream_records as r').leftJoin('authors as a', 'a.id', 'r.author_id').select(['r.id', 'a.handle']).where('r.subject_id', '=', postId).orderBy('r.created_at', 'desc').orderBy('r.id').orderBy('r.kind').offset(0).limit(51);
const c = q.compile();
const { rows } = await sql.raw(`explain analyze ${c.sql.replace(/\$(\d+)/g, (_, n) => { const v = c.parameters[Number(n) - 1]; return typeof v === 'string' ? `'${v}'` : String(v); })}`).execute(database.db);
for (const r of rows as Array<Record<string, string>>) console.log(Object.values(r)[0]);
let t = performance.now();
for (let i = 0; i < 50; i++) await postRecords(database.db, postId, 0, 51);
console.log('page 1 ms', (performance.now() - t) / 50);
t = performance.now();
for (let i = 0; i < 50; i++) await findPost(database.db, postId);
console.log('findPost ms', (performance.now() - t) / 50);
await database.close();
