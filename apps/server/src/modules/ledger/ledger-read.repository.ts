import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/schema';
import type { LedgerWeek } from './ledger-week';

/** A time as the ledger writes it (ISO 8601, UTC, milliseconds), made by the database the same way on both kinds. */
export function isoTime(column: RawBuilder<unknown>): RawBuilder<string> {
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
