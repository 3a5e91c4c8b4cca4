import { randomBytes } from 'node:crypto';
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

/** What scoring a post needs of the rules in force (their weights, linked multiplier and daily limit). */
export type ScoreNow = {
  weights: { like: number; reply: number; repost: number; quote: number };
  linkedMultiplier: number;
  dailyLimit: number;
};

/**
 * The week's post lines (of `authors`, or all): as stored (a closed week, where the totals job has fixed every
 * line), or with `now` scored from the counts the row holds at this moment (the open week): what the totals job's
 * scorer (mana/scoring.ts, scoreAuthorPosts) would write, so the line agrees with the counts and records the
 * ledger lists instead of lagging until the next totals run. A fixed line keeps its Mana, limit flag, multiplier
 * and version; any other is scored with the rules in force: the daily limit by (created_at, id as compareIds)
 * among the author's posts of its UTC day (a week holds whole days), the linked multiplier for a post written
 * from the moment its author linked (as authorFacts reads it), 0 Mana over the limit or when not live.
 */
function postLines(
  week: LedgerWeek,
  activeVersion: number,
  now: ScoreNow | null,
  authors: readonly string[] | null,
): RawBuilder<unknown> {
  const mine = authors ? sql`and p.author_id in (${sql.join([...authors])})` : sql``;
  if (!now)
    return sql`(select p.id, p.author_id, p.created_at, p.likes, p.replies, p.reposts, p.quotes, p.status,
        p.mana, p.multiplier, p.over_limit, coalesce(p.rules_version, ${activeVersion}) as rules_version
      from posts p where p.created_at >= ${week.from} and p.created_at < ${week.to} ${mine})`;
  const w = now.weights;
  return sql`(select q.id, q.author_id, q.created_at, q.likes, q.replies, q.reposts, q.quotes, q.status,
        case when q.mana_fixed then q.mana when q.status <> 'live' or q.over_now then 0
          else q.multiplier_now * (${w.like}::integer * q.likes + ${w.reply}::integer * q.replies
            + ${w.repost}::integer * q.reposts + ${w.quote}::integer * q.quotes) end as mana,
        q.multiplier_now as multiplier, q.over_now as over_limit,
        case when q.mana_fixed then coalesce(q.rules_version, ${activeVersion}) else ${activeVersion} end
          as rules_version
      from (
        select s.*,
          case when s.mana_fixed then s.over_limit else s.slot > ${now.dailyLimit}::integer end as over_now,
          case when s.mana_fixed then s.multiplier
            when exists (select 1 from accounts ac where ac.network_user_id = s.author_id
              and ac.linked_at is not null and s.created_at >= ac.linked_at
              and exists (select 1 from browser_links bl where bl.account_id = ac.id))
            then ${now.linkedMultiplier}::integer else 1 end as multiplier_now
        from (
          select p.*, row_number() over (partition by p.author_id, (p.created_at at time zone 'UTC')::date
            order by p.created_at, length(p.id), p.id collate "C") as slot
          from posts p where p.created_at >= ${week.from} and p.created_at < ${week.to} ${mine}
        ) s
      ) q)`;
}

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
export async function weekMembers(
  db: Db,
  week: LedgerWeek,
  activeVersion: number,
  now: ScoreNow | null = null,
): Promise<MemberRow[]> {
  const { from, to } = week;
  const { rows } = await sql<{
    author: string;
    handle: string;
    first_tracked_at: string;
    mana: string | number;
    versions: number[];
  }>`
    with lines as (
      select p.author_id as author, p.mana::bigint as mana, p.rules_version as version
      from ${postLines(week, activeVersion, now, null)} p
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
  now: ScoreNow | null = null,
): Promise<PostRow[]> {
  if (authors.length === 0) return [];
  const { rows } = await sql<{
    id: string;
    author_id: string;
    created_at_text: string;
    likes: number;
    replies: number;
    reposts: number;
    quotes: number;
    mana: number;
    multiplier: number;
    over_limit: boolean;
    status: PostRow['status'];
    rules_version: number;
  }>`
    select p.id, p.author_id, ${isoTime(sql`p.created_at`)} as created_at_text, p.likes, p.replies, p.reposts,
      p.quotes, p.mana, p.multiplier, p.over_limit, p.status, p.rules_version
    from ${postLines(week, activeVersion, now, authors)} p
  `.execute(db);
  return rows.map((r) => ({
    post: r.id,
    author: r.author_id,
    createdAt: r.created_at_text,
    likes: r.likes,
    replies: r.replies,
    reposts: r.reposts,
    quotes: r.quotes,
    mana: Number(r.mana),
    multiplier: Number(r.multiplier),
    overDailyLimit: r.over_limit,
    status: r.status,
    rulesVersion: Number(r.rules_version),
  }));
}

export type ReferralRow = { author: string; referee: string; at: string; mana: number; rulesVersion: number };

/** The server secret (server_secrets) the referee commitments are salted with. */
export const REFEREE_SALT_SECRET = 'ledger-referee-salt';

/**
 * Creates the referee commitments' secret (32 random bytes) the first time a ledger is built; concurrent builders
 * agree (the insert does nothing on conflict). Called before a build's read-only snapshot.
 */
export async function ensureRefereeSalt(db: Db): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values({ name: REFEREE_SALT_SECRET, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * A referral's salt, `hex(sha256(<secret> ␠ <referral id>))`, and its referee as the ledger writes it,
 * `sha256:hex(sha256(<salt hex> ␠ <referee's network user id>))` (docs/ledger-format.md): the breakdown names a
 * referee only to the member themself, so the public ledger carries a commitment, one per referee (a member is
 * referred once), that the programme can open for one line (its salt and the referee) without opening any other.
 */
const lineSalt = sql<string>`encode(sha256(convert_to(
  (select s.value from server_secrets s where s.name = ${REFEREE_SALT_SECRET}) || ' ' || r.id::text, 'UTF8')), 'hex')`;
const refereeCommitment = sql<string>`'sha256:' || encode(sha256(convert_to(${lineSalt} || ' ' || ree.network_user_id,
  'UTF8')), 'hex')`;

/** The referrals these members made in the week that count. */
export async function weekReferrals(
  db: Db,
  authors: readonly string[],
  week: LedgerWeek,
): Promise<ReferralRow[]> {
  if (authors.length === 0) return [];
  const { rows } = await sql<{ author: string; referee: string; at: string; mana: number; version: number }>`
    select ref.network_user_id as author, ${refereeCommitment} as referee, ${isoTime(sql`r.created_at`)} as at,
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

/** An exported snapshot's name as PostgreSQL writes it (e.g. `00000003-0000001B-1`): checked before it is quoted. */
const SNAPSHOT_ID = /^[0-9A-F]+-[0-9A-F]+(?:-[0-9]+)?$/i;

/** Exports the snapshot of a repeatable-read transaction, for other connections to read the same board. */
export async function exportSnapshot(trx: Db): Promise<string> {
  const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
  const id = rows[0]?.id ?? '';
  if (!SNAPSHOT_ID.test(id)) throw new Error(`PostgreSQL exported a snapshot named ${JSON.stringify(id)}`);
  return id;
}

/** Makes a transaction read an exported snapshot: its first statement, as PostgreSQL requires. */
export async function importSnapshot(trx: Db, id: string): Promise<void> {
  if (!SNAPSHOT_ID.test(id)) throw new Error(`not a snapshot name: ${JSON.stringify(id)}`);
  // SET takes no parameters: the name, checked above, is written as a literal.
  await sql`set transaction snapshot ${sql.lit(id)}`.execute(trx);
}
