import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import { likeLiteral } from '../leaderboard/leaderboard.repository';

/**
 * Tracked authors and linked members whose handle (or display name) contains `q` (lower-case, no @): exact
 * handle first, then handle prefixes, then the rest by handle. One row per network user id (an author who
 * linked is one member); all-time Mana and rank ride along. The substring match on authors is index-backed by
 * the pg_trgm indices of migration 0005, as the leaderboard search is.
 */
export async function searchMembers(db: Db, query: { q: string; limit: number; offset: number }) {
  const contains = `%${likeLiteral(query.q)}%`;
  const prefix = `${likeLiteral(query.q)}%`;
  const rows = await sql<{
    member_id: string;
    handle: string;
    display_name: string | null;
    tracked: boolean;
    linked: boolean;
    disqualified: boolean;
    mana: number | null;
    rank: number | null;
    total: string;
  }>`
    with hits as (
      select a.id as member_id, a.handle, a.display_name, true as tracked, a.disqualified
      from authors a
      where lower(a.handle) like ${contains} or lower(a.display_name) like ${contains}
      union all
      select ac.network_user_id, ac.handle, null, false, ac.disqualified
      from accounts ac
      where lower(ac.handle) like ${contains}
        and not exists (select 1 from authors a2 where a2.id = ac.network_user_id)
    )
    select h.member_id, h.handle, h.display_name, h.tracked, h.disqualified,
      exists (select 1 from accounts ac join browser_links bl on bl.account_id = ac.id
              where ac.network_user_id = h.member_id) as linked,
      t.mana, t.rank, count(*) over () as total
    from hits h
    left join mana_totals t on t.period = 'all' and t.author_id = h.member_id
    order by case when lower(h.handle) = ${query.q} then 0 when lower(h.handle) like ${prefix} then 1 else 2 end,
      lower(h.handle), h.member_id
    limit ${query.limit} offset ${query.offset}
  `.execute(db);
  return rows.rows;
}

/** The author row of a member, when tracked. */
export async function authorOf(db: Db, memberId: string) {
  return db.selectFrom('authors').selectAll().where('id', '=', memberId).executeTakeFirst();
}

/** The linked account of a member with how many browsers are bound to it, when they ever linked. */
export async function accountOf(db: Db, memberId: string) {
  return db
    .selectFrom('accounts as ac')
    .select([
      'ac.id',
      'ac.handle',
      'ac.linked_at',
      'ac.followers',
      'ac.network_created_at',
      (eb) =>
        eb
          .selectFrom('browser_links as bl')
          .select((e) => e.fn.countAll<string>().as('n'))
          .whereRef('bl.account_id', '=', 'ac.id')
          .as('browsers'),
    ])
    .where('ac.network_user_id', '=', memberId)
    .executeTakeFirst();
}

/** Referrals where the account is the referee (`side: 'referee'`) or the referrer, with the other member. */
export async function referralsOf(db: Db, accountId: string, side: 'referee' | 'referrer') {
  const [mine, other] =
    side === 'referee'
      ? (['r.referee_account_id', 'r.referrer_account_id'] as const)
      : (['r.referrer_account_id', 'r.referee_account_id'] as const);
  return db
    .selectFrom('referrals as r')
    .innerJoin('accounts as o', 'o.id', other)
    .select(['o.handle', 'o.network_user_id', 'r.status', 'r.reward_mana', 'r.created_at'])
    .where(mine, '=', accountId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}

/** Audit lines about the member (their network user id or their account id), newest first. */
export async function historyOf(db: Db, subjects: readonly string[], limit: number) {
  return db
    .selectFrom('audit_log')
    .select(['at', 'actor', 'action', 'details'])
    .where('subject', 'in', [...subjects])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
