import { sql } from 'kysely';
import type { Db } from '../../db/schema';
import { countingReferrals } from '../referrals/referrals.repository';

/** A referral as a ledger line of the referrer's author: fixed reward, in the week the referral was made. */
export type ReferralLine = { authorId: string; refereeHandle: string; mana: number; at: Date };

/**
 * Credited referrals of the given authors (as referrers), from the referral module's own countingReferrals:
 * the referee is linked (has a browser) and not disqualified.
 */
export async function referralLines(db: Db, authorIds: readonly string[]): Promise<ReferralLine[]> {
  if (authorIds.length === 0) return [];
  const rows = await countingReferrals(db)
    .innerJoin('accounts as referrer', 'referrer.id', 'referrals.referrer_account_id')
    .select(['referrer.network_user_id', 'referee.handle', 'referrals.reward_mana', 'referrals.created_at'])
    .where('referrer.network_user_id', 'in', authorIds)
    .orderBy('referrals.created_at')
    .execute();
  return rows.map((r) => ({
    authorId: r.network_user_id,
    refereeHandle: r.handle,
    mana: r.reward_mana,
    at: r.created_at,
  }));
}

/**
 * Brings the linking and referral side into the ledger's view, in two statements: members who earned referral
 * credit without a tracked post get an author row (so they can rank), and authors whose member facts changed
 * (linked or unlinked, disqualified, referral credits) are flagged for the totals job.
 */
export async function syncMemberFacts(db: Db, now: Date): Promise<void> {
  await sql`
    insert into authors (id, handle, display_name, avatar_url, first_tracked_at, totals_dirty, updated_at)
    select ac.network_user_id, ac.handle, ac.handle, ac.avatar_url, min(r.created_at), true, ${now}
    from referrals r join accounts ac on ac.id = r.referrer_account_id
    where r.status = 'credited' and not exists (select 1 from authors a where a.id = ac.network_user_id)
    group by ac.network_user_id, ac.handle, ac.avatar_url
    on conflict (id) do nothing
  `.execute(db);
  await sql`
    update authors as a set totals_dirty = true, facts_signature = f.sig
    from (
      select ac.network_user_id as id, concat_ws('|',
        case when exists (select 1 from browser_links bl where bl.account_id = ac.id)
          then extract(epoch from ac.linked_at)::text else '' end,
        ac.disqualified::text,
        (select sum(r.reward_mana)::text || ':' || count(*)::text
          from referrals r join accounts re on re.id = r.referee_account_id
          where r.referrer_account_id = ac.id and r.status = 'credited' and not re.disqualified
            and exists (select 1 from browser_links bl2 where bl2.account_id = re.id))
      ) as sig
      from accounts ac
    ) as f
    where a.id = f.id and a.facts_signature <> f.sig
  `.execute(db);
}
