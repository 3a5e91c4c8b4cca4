import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/schema';

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
 * exact handle first, then prefixes, then substrings, each by rank; rows keep their global rank. Prefixes use
 * the `text_pattern_ops` indices; the substring part is a scan of the period's rows (bounded by the period).
 */
export async function pageOfTotals(
  db: Db,
  query: { period: string; search: string; limit: number; offset: number },
): Promise<{ rows: TotalsPageRow[]; total: number }> {
  const q = query.search;
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
  const linked = sql<SqlBool>`exists (
    select 1 from accounts ac join browser_links bl on bl.account_id = ac.id where ac.x_user_id = a.id
  )`;
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
  ]);
  if (q) {
    const prefix = `${likeLiteral(q)}%`;
    rowsQuery = rowsQuery
      .orderBy(
        sql`case when lower(a.handle) = ${q} then 0 when lower(a.handle) like ${prefix} then 1
        when lower(a.display_name) like ${prefix} then 2 else 3 end`,
      )
      .orderBy('t.rank');
  } else {
    rowsQuery = rowsQuery.orderBy('t.rank');
  }
  const [rows, count] = await Promise.all([
    rowsQuery.limit(query.limit).offset(query.offset).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
  ]);
  return { rows: rows.map((r) => ({ ...r, linked: Boolean(r.linked) })), total: Number(count?.n ?? 0) };
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
