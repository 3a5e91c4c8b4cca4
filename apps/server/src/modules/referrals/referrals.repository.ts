import type { Db } from '../../db/schema';

export type NewReferral = {
  refereeAccountId: string;
  referrerAccountId: string;
  rewardMana: number;
  createdAt: Date;
};

/**
 * Records a referral unless the referee already has one: the unique referee column decides between parallel
 * applies. Returns false when another referral got there first.
 */
export async function insertReferral(db: Db, referral: NewReferral): Promise<boolean> {
  const row = await db
    .insertInto('referrals')
    .values({
      referee_account_id: referral.refereeAccountId,
      referrer_account_id: referral.referrerAccountId,
      reward_mana: referral.rewardMana,
      status: 'credited',
      created_at: referral.createdAt,
    })
    .onConflict((oc) => oc.column('referee_account_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Who referred this member (id and current handle), if anyone. */
export async function findReferrerOf(
  db: Db,
  refereeAccountId: string,
): Promise<{ referrerAccountId: string; referrerHandle: string } | undefined> {
  const row = await db
    .selectFrom('referrals')
    .innerJoin('accounts', 'accounts.id', 'referrals.referrer_account_id')
    .select(['referrals.referrer_account_id', 'accounts.handle'])
    .where('referrals.referee_account_id', '=', refereeAccountId)
    .executeTakeFirst();
  return row ? { referrerAccountId: row.referrer_account_id, referrerHandle: row.handle } : undefined;
}

/**
 * The referrals that earn their referrer Mana: credited, with a referee who is still linked (some browser bound)
 * and not disqualified. The referee count here and the Mana engine's referral lines both start from this query,
 * so they always agree.
 */
export function countingReferrals(db: Db) {
  return db
    .selectFrom('referrals')
    .innerJoin('accounts as referee', 'referee.id', 'referrals.referee_account_id')
    .where('referrals.status', '=', 'credited')
    .where('referee.disqualified', '=', false)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('browser_links').select('browser_hash').whereRef('account_id', '=', 'referee.id'),
      ),
    );
}

/** How many members this one referred whose referral still counts (see countingReferrals). */
export async function countReferees(db: Db, referrerAccountId: string): Promise<number> {
  const row = await countingReferrals(db)
    .where('referrals.referrer_account_id', '=', referrerAccountId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
