import { sql } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Db } from '../../db/schema';

/**
 * Flags for the totals job every author with a post whose line may still move (not yet fixed): a rules change
 * can change their Mana, daily-limit selection or multiplier. Authors whose posts are all final keep theirs.
 * Returns how many were flagged.
 */
export async function markRescorableAuthorsDirty(db: Db): Promise<number> {
  const result = await db
    .updateTable('authors')
    .set({ totals_dirty: true })
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('posts')
          .select('posts.id')
          .whereRef('posts.author_id', '=', 'authors.id')
          .where('posts.mana_fixed', '=', false),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Pending interaction lines take the rules in force: the reward of their kind, and the re-check and settle
 * times counted from their detection. Settled lines keep what they were credited. Returns how many changed.
 */
export async function repricePendingInteractions(db: Db, rules: ProgrammeRules): Promise<number> {
  const { like, reply, repost } = rules.interactionRewards;
  const result = await sql`
    update interactions set
      reward = case kind when 'like' then ${like}::integer when 'reply' then ${reply}::integer
        else ${repost}::integer end,
      check_after = detected_at + ${rules.settleAfterHours}::integer * interval '1 hour',
      settle_by = detected_at + ${rules.settleByHours}::integer * interval '1 hour'
    where status = 'pending'
      and (reward, check_after, settle_by) is distinct from (
        case kind when 'like' then ${like}::integer when 'reply' then ${reply}::integer else ${repost}::integer end,
        detected_at + ${rules.settleAfterHours}::integer * interval '1 hour',
        detected_at + ${rules.settleByHours}::integer * interval '1 hour')
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
