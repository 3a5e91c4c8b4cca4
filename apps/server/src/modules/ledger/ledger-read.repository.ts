import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/schema';
import type { LedgerWeek } from './ledger-week';

/** A time as the ledger writes it (ISO 8601, UTC, milliseconds), made by the database the same way on both kinds. */
function isoTime(column: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The rules version in force at an instant: the newest stored at or before it (the first, before any). */
function versionAt(column: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`coalesce(
    (select max(pr.version) from programme_rules pr where pr.created_at <= ${column}),
    (select min(pr.version) from programme_rules pr))`;
}

/** Authors on the board: not disqualified themselves, nor through their linked account (as the totals job). */
const eligible = sql<boolean>`not a.disqualified and not exists (
  select 1 from accounts ac where ac.network_user_id = a.id and ac.disqualified
    and exists (select 1 from browser_links bl where bl.account_id = ac.id))`;

/** Referrals that count (the referral module's countingReferrals): credited, referee linked and qualified. */
const countingReferral = sql<boolean>`r.status = 'credited' and not ree.disqualified
  and exists (select 1 from browser_links bl where bl.account_id = ree.id)`;

/** Every stored rules version, oldest first. */
export async function rulesVersions(db: Db): Promise<Array<{ version: number; rules: unknown }>> {
  return db.selectFrom('programme_rules').select(['version', 'rules']).orderBy('version').execute();
}

/** When the programme's first tracked post was written (null before any). */
export async function firstPostAt(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.min('created_at').as('first'))
    .executeTakeFirst();
  return row?.first ? new Date(row.first) : null;
}

export type MemberRow = {
  author: string;
  handle: string;
  firstTrackedAt: string;
  mana: number;
  /** The rules versions the member's lines name. */
  versions: number[];
};

/**
 * The week's board: every author with a line in it (a post written, a referral made, an interaction settled in
 * the week) who is not disqualified, with the sum of those lines and the rules versions they name. One statement,
 * so the sums and the lines read later agree unless the data moved in between (the writer checks).
 */
export async function weekMembers(db: Db, week: LedgerWeek, activeVersion: number): Promise<MemberRow[]> {
  const { from, to } = week;
  const { rows } = await sql<{
    author: string;
    handle: string;
    first_tracked_at: string;
    mana: string | number;
    versions: number[];
  }>`
    with lines as (
      select p.author_id as author, p.mana::bigint as mana, coalesce(p.rules_version, ${activeVersion}) as version
      from posts p where p.created_at >= ${from} and p.created_at < ${to}
      union all
      select ref.network_user_id, r.reward_mana::bigint, ${versionAt(sql`r.created_at`)}
      from referrals r
        join accounts ref on ref.id = r.referrer_account_id
        join accounts ree on ree.id = r.referee_account_id
      where ${countingReferral} and r.created_at >= ${from} and r.created_at < ${to}
      union all
      select i.member_id, i.reward::bigint, ${versionAt(sql`i.settled_at`)}
      from interactions i
      where i.status = 'credited' and i.settled_at >= ${from} and i.settled_at < ${to}
    )
    select a.id as author, a.handle, ${isoTime(sql`a.first_tracked_at`)} as first_tracked_at,
      sum(l.mana) as mana, array_agg(distinct l.version) as versions
    from lines l join authors a on a.id = l.author
    where ${eligible}
    group by a.id, a.handle, a.first_tracked_at
  `.execute(db);
  return rows.map((r) => ({
    author: r.author,
    handle: r.handle,
    firstTrackedAt: r.first_tracked_at,
    mana: Number(r.mana),
    versions: r.versions.map(Number),
  }));
}

export type PostRow = {
  post: string;
  author: string;
  createdAt: string;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  mana: number;
  multiplier: number;
  overDailyLimit: boolean;
  status: 'live' | 'deleted' | 'protected';
  rulesVersion: number;
};

/** The posts these authors wrote in the week (any status: a deleted post keeps its line). */
export async function weekPosts(
  db: Db,
  authors: readonly string[],
  week: LedgerWeek,
  activeVersion: number,
): Promise<PostRow[]> {
  if (authors.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .select([
      'id',
      'author_id',
      isoTime(sql`created_at`).as('created_at_text'),
      'likes',
      'replies',
      'reposts',
      'quotes',
      'mana',
      'multiplier',
      'over_limit',
      'status',
      'rules_version',
    ])
    .where('author_id', 'in', authors)
    .where('created_at', '>=', week.from)
    .where('created_at', '<', week.to)
    .execute();
  return rows.map((r) => ({
    post: r.id,
    author: r.author_id,
    createdAt: r.created_at_text,
    likes: r.likes,
    replies: r.replies,
    reposts: r.reposts,
    quotes: r.quotes,
    mana: r.mana,
    multiplier: r.multiplier,
    overDailyLimit: r.over_limit,
    status: r.status,
    rulesVersion: r.rules_version ?? activeVersion,
  }));
}

export type ReferralRow = { author: string; referee: string; at: string; mana: number; rulesVersion: number };

/** The referrals these members made in the week that count. */
export async function weekReferrals(
  db: Db,
  authors: readonly string[],
  week: LedgerWeek,
): Promise<ReferralRow[]> {
  if (authors.length === 0) return [];
  const { rows } = await sql<{ author: string; referee: string; at: string; mana: number; version: number }>`
    select ref.network_user_id as author, ree.network_user_id as referee, ${isoTime(sql`r.created_at`)} as at,
      r.reward_mana as mana, ${versionAt(sql`r.created_at`)} as version
    from referrals r
      join accounts ref on ref.id = r.referrer_account_id
      join accounts ree on ree.id = r.referee_account_id
    where ${countingReferral} and r.created_at >= ${week.from} and r.created_at < ${week.to}
      and ref.network_user_id in (${sql.join([...authors])})
  `.execute(db);
  return rows.map((r) => ({ ...r, mana: Number(r.mana), rulesVersion: Number(r.version) }));
}

export type InteractionRow = {
  author: string;
  post: string;
  kind: 'like' | 'reply' | 'repost';
  at: string;
  mana: number;
  record: string | null;
  cid: string | null;
  rulesVersion: number;
};

/** The interaction lines credited to these members in the week (by when they settled). */
export async function weekInteractions(
  db: Db,
  authors: readonly string[],
  week: LedgerWeek,
): Promise<InteractionRow[]> {
  if (authors.length === 0) return [];
  const rows = await db
    .selectFrom('interactions as i')
    .select([
      'i.member_id',
      'i.post_id',
      'i.kind',
      isoTime(sql`i.settled_at`).as('at'),
      'i.reward',
      'i.record_id',
      'i.record_cid',
      versionAt(sql`i.settled_at`).as('version'),
    ])
    .where('i.member_id', 'in', authors)
    .where('i.status', '=', 'credited')
    .where('i.settled_at', '>=', week.from)
    .where('i.settled_at', '<', week.to)
    .execute();
  return rows.map((r) => ({
    author: r.member_id,
    post: r.post_id,
    kind: r.kind,
    at: r.at,
    mana: r.reward,
    record: r.record_id,
    cid: r.record_cid,
    rulesVersion: Number(r.version),
  }));
}

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
 * A record's line as the ledger writes it, made by the database: keys in canonical order, each string through
 * to_json (it escapes as JSON.stringify does: `"`, `\\`, control characters as \u00xx, nothing else), the time
 * as the ledger writes times, and the newline. A million records are then a million strings the database joins per
 * post, not a million rows of six values each for the server to take apart and put together again;
 * ledger-read.repository.test.ts holds it to the contract's canonicalLine.
 */
const recordLineSql = sql<string>`'{"author":' || to_json(author_id)::text
  || ',"cid":' || coalesce(to_json(cid)::text, 'null')
  || ',"createdAt":"' || ${isoTime(sql`created_at`)}
  || '","kind":"' || kind || '","post":' || to_json(subject_id)::text
  || ',"type":"record","uri":' || to_json(id)::text || E'}\n'`;

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
