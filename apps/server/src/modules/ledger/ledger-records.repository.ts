import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import { isoTime } from './ledger-read.repository';

export type RecordCounts = { like: number; quote: number; reply: number; repost: number };

/** How many counted records each of these posts has, by kind. */
export async function recordCounts(db: Db, posts: readonly string[]): Promise<Map<string, RecordCounts>> {
  const counts = new Map<string, RecordCounts>();
  if (posts.length === 0) return counts;
  const rows = await db
    .selectFrom('stream_records')
    .select(['subject_id', 'kind', (eb) => eb.fn.countAll<string>().as('n')])
    .where('subject_id', 'in', posts)
    .where('state', '=', 'counted')
    .where('kind', 'in', ['like', 'quote', 'reply', 'repost'])
    .groupBy(['subject_id', 'kind'])
    .execute();
  for (const r of rows) {
    const c = counts.get(r.subject_id) ?? { like: 0, quote: 0, reply: 0, repost: 0 };
    c[r.kind] += Number(r.n);
    counts.set(r.subject_id, c);
  }
  return counts;
}

/**
 * A record's line as the ledger writes it: the line stored with the record (stream_records.line, migration 0026:
 * written once, when it was stored, by the contract's canonicalLine), or for a row stored without one, made by the
 * database: keys in canonical order, each string through to_json (it escapes as JSON.stringify does: `"`, `\\`,
 * control characters as \u00xx, nothing else), the time as the ledger writes times, and the newline. Either way a
 * million records are a million strings the database joins per post, not a million rows of six values each for the
 * server to take apart and put together again; ledger-records.repository.test.ts holds both to canonicalLine.
 */
export const madeRecordLine = sql<string>`'{"author":' || to_json(author_id)::text
  || ',"cid":' || coalesce(to_json(cid)::text, 'null')
  || ',"createdAt":"' || ${isoTime(sql`created_at`)}
  || '","kind":"' || kind || '","post":' || to_json(subject_id)::text
  || ',"type":"record","uri":' || to_json(id)::text || E'}\n'`;

const recordLineSql = sql<string>`coalesce(line, ${madeRecordLine})`;

const kinds = sql`kind in ('like', 'quote', 'reply', 'repost')`;
const perKind = sql`count(*) filter (where kind = 'like') as like, count(*) filter (where kind = 'quote') as quote,
  count(*) filter (where kind = 'reply') as reply, count(*) filter (where kind = 'repost') as repost`;

type CountsRow = {
  like: string | number;
  quote: string | number;
  reply: string | number;
  repost: string | number;
};
const countsOf = (r: CountsRow): RecordCounts => ({
  like: Number(r.like),
  quote: Number(r.quote),
  reply: Number(r.reply),
  repost: Number(r.repost),
});

/**
 * The counted records of a few posts at once, one row per post that has any: how many of each kind, and their
 * lines in the ledger's order (kind, then address in code-unit order) as one text; the text is left out (null)
 * of a post with more than `cap` records, which is then read a page at a time.
 */
export async function recordTexts(
  db: Db,
  posts: readonly string[],
  cap: number,
): Promise<Array<{ post: string; counts: RecordCounts; text: string | null }>> {
  if (posts.length === 0) return [];
  const { rows } = await sql<CountsRow & { subject: string; text: string | null }>`
    select subject_id as subject, ${perKind},
      case when count(*) <= ${cap} then string_agg(${recordLineSql}, '' order by kind, id collate "C") end as text
    from stream_records
    where subject_id in (${sql.join([...posts])}) and state = 'counted' and ${kinds}
    group by subject_id
  `.execute(db);
  return rows.map((r) => ({ post: r.subject, counts: countsOf(r), text: r.text }));
}

export type RecordPage = {
  text: string;
  counts: RecordCounts;
  size: number;
  last: { kind: string; id: string };
};

/** One page of a post's counted records after (kind, id), in the ledger's order: keyset, never an offset. */
export async function recordPage(
  db: Db,
  post: string,
  after: { kind: string; id: string } | null,
  limit: number,
): Promise<RecordPage | null> {
  const from = after
    ? sql`and (kind > ${after.kind} or (kind = ${after.kind} and id collate "C" > ${after.id}))`
    : sql``;
  const { rows } = await sql<
    CountsRow & { text: string; size: string | number; last_kind: string; last_id: string }
  >`
    select string_agg(line, '' order by kind, id collate "C") as text, ${perKind}, count(*) as size,
      (array_agg(kind order by kind desc, id collate "C" desc))[1] as last_kind,
      (array_agg(id order by kind desc, id collate "C" desc))[1] as last_id
    from (
      select kind, id, ${recordLineSql} as line from stream_records
      where subject_id = ${post} and state = 'counted' and ${kinds} ${from}
      order by kind, id collate "C" limit ${limit}
    ) as page
  `.execute(db);
  const row = rows[0];
  if (!row || Number(row.size) === 0) return null;
  return {
    text: row.text,
    counts: countsOf(row),
    size: Number(row.size),
    last: { kind: row.last_kind, id: row.last_id },
  };
}
