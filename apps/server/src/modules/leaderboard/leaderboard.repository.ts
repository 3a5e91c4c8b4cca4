import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/schema';
import { TOTALS_STAMP_JOB } from '../mana/totals.repository';

/** `like` pattern of a literal text (its % _ and \ escaped). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type TotalsPageRow = {
  author_id: string;
  handle: string;
  display_name: string;
  avatar_url: string | null;
  rank: number;
  mana: number;
  posts: number;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  linked: boolean;
};

/**
 * Leaderboard rows of a period in rank order. With `search` (lower-cased, no @): handle or display name,
 * exact handle first, then prefixes, then substrings, each by rank; rows keep their global rank.
 *
 * Without a search the page is a range of the board's order index (period, Mana desc, first tracked post, id —
 * the order ranks number) and the total needs no count: ranks are 1..n within a period (rerank writes them in
 * the same transaction as the rows), so the total is the last row's rank less the disqualified authors still
 * waiting for the totals job (a partial index finds those).
 * A search is one statement: the substring match is index-backed by the pg_trgm indices on lower(handle) and
 * lower(display_name) (migration 0005; a scan of authors where the extension is missing), the period's row
 * joined by primary key, and the total counted by a window over the matches instead of a second query.
 */
export async function pageOfTotals(
  db: Db,
  query: { period: string; search: string; limit: number; offset: number },
): Promise<{ rows: TotalsPageRow[]; total: number; updatedAt: Date | null }> {
  const q = query.search;
  const linked = sql<SqlBool>`exists (
    select 1 from accounts ac join browser_links bl on bl.account_id = ac.id where ac.network_user_id = a.id
  )`;
  // The period's size and the board's change stamp ride along as scalar subqueries: one round trip a page.
  const periodSize = sql<string>`coalesce((select rank from mana_totals where period = ${query.period}
      order by mana, first_tracked_at desc, author_id desc limit 1), 0)
    - (select count(*) from authors da join mana_totals dt on dt.author_id = da.id
       where da.disqualified and dt.period = ${query.period})`;
  const stampAt = sql<Date | null>`(select updated_at from ingest_state where job = ${TOTALS_STAMP_JOB})`;
  let base = db
    .selectFrom('mana_totals as t')
    .innerJoin('authors as a', 'a.id', 't.author_id')
    .where('t.period', '=', query.period)
    .where('a.disqualified', '=', false);
  if (q) {
    const contains = `%${likeLiteral(q)}%`;
    base = base.where((eb) =>
      eb.or([eb(sql`lower(a.handle)`, 'like', contains), eb(sql`lower(a.display_name)`, 'like', contains)]),
    );
  }
  let rowsQuery = base.select([
    't.author_id',
    'a.handle',
    'a.display_name',
    'a.avatar_url',
    't.rank',
    't.mana',
    't.posts',
    't.likes',
    't.replies',
    't.reposts',
    't.quotes',
    linked.as('linked'),
    (q ? sql<string>`count(*) over ()` : periodSize).as('total'),
    stampAt.as('stamp_at'),
  ]);
  if (q) {
    const prefix = `${likeLiteral(q)}%`;
    rowsQuery = rowsQuery.orderBy(
      sql`case when lower(a.handle) = ${q} then 0 when lower(a.handle) like ${prefix} then 1
        when lower(a.display_name) like ${prefix} then 2 else 3 end`,
    );
  }
  // The board's order is the rank's order (rerank numbers exactly this order), read from its index.
  const rows = await rowsQuery
    .orderBy('t.mana', 'desc')
    .orderBy('t.first_tracked_at')
    .orderBy('t.author_id')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const first = rows[0];
  if (first) {
    return {
      rows: rows.map(({ total: _total, stamp_at: _stampAt, ...r }) => ({ ...r, linked: Boolean(r.linked) })),
      total: Number(first.total),
      updatedAt: first.stamp_at,
    };
  }
  // No row (an empty board, no match, or paged past the end): count and stamp on their own.
  const count = q
    ? await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst()
    : await db.selectNoFrom(periodSize.as('n')).executeTakeFirst();
  const stamp = await db.selectNoFrom(stampAt.as('at')).executeTakeFirst();
  return { rows: [], total: Number(count?.n ?? 0), updatedAt: stamp?.at ?? null };
}

export type PostPageRow = {
  id: string;
  text: string;
  created_at: Date;
  author_id: string;
  handle: string;
  avatar_url: string | null;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  mana: number;
  final: boolean;
  over_limit: boolean;
};

/** Live tracked posts of non-disqualified authors, by Mana then newest; optional period start and search. */
export async function pageOfPosts(
  db: Db,
  query: { since: Date | null; until: Date | null; search: string; limit: number; offset: number },
): Promise<PostPageRow[]> {
  let q = db
    .selectFrom('posts as p')
    .innerJoin('authors as a', 'a.id', 'p.author_id')
    .select([
      'p.id',
      'p.text',
      'p.created_at',
      'p.author_id',
      'a.handle',
      'a.avatar_url',
      'p.likes',
      'p.replies',
      'p.reposts',
      'p.quotes',
      'p.mana',
      'p.final',
      'p.over_limit',
    ])
    .where('p.status', '=', 'live')
    .where('a.disqualified', '=', false);
  if (query.since) q = q.where('p.created_at', '>=', query.since);
  if (query.until) q = q.where('p.created_at', '<', query.until);
  if (query.search) {
    const contains = `%${likeLiteral(query.search)}%`;
    q = q.where((eb) =>
      eb.or([eb(sql`lower(p.text)`, 'like', contains), eb(sql`lower(a.handle)`, 'like', contains)]),
    );
  }
  return q
    .orderBy('p.mana', 'desc')
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
}

/** Tracked posts of an author created in [from, to) — the daily-limit count. */
export async function countPostsBetween(db: Db, authorId: string, from: Date, to: Date): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('author_id', '=', authorId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
