import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import type { SocialPost } from '../../social/social-network';
import { saveCursor } from './ingest-state.repository';
import * as repo from './interactions.repository';
import { markAuthorsDirty } from './authors.repository';

const HOUR_MS = 3_600_000;

export type FoundInteraction = {
  memberId: string;
  postId: string;
  kind: repo.InteractionKind;
  /** The member's record (its id and CID) where the network names one: the stream's like, reply or repost. */
  recordId?: string | null;
  recordCid?: string | null;
};

/** Stores a page of official posts with the job's cursor, in one transaction. */
export async function recordOfficialPosts(
  db: Kysely<Database>,
  posts: readonly SocialPost[],
  cursor: { job: string; value: Record<string, unknown> },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await repo.upsertOfficialPosts(
      trx,
      posts.filter((p) => p.kind === 'original' || p.kind === 'quote'),
    );
    await saveCursor(trx, cursor.job, cursor.value, now);
  });
}

/**
 * Turns what the network showed into pending lines for linked members only: each line is re-checked no earlier
 * than `settleAfterHours` after detection and settled by `settleByHours`. Returns how many lines are new.
 */
export async function recordInteractions(
  db: Kysely<Database>,
  rules: ProgrammeRules,
  found: readonly FoundInteraction[],
  now: Date,
): Promise<number> {
  const members = await repo.linkedMemberIds(
    db,
    found.map((f) => f.memberId),
  );
  return repo.insertInteractions(
    db,
    found
      .filter((f) => members.has(f.memberId))
      .map((f) => ({
        ...f,
        reward: rules.interactionRewards[f.kind],
        detectedAt: now,
        checkAfter: new Date(now.getTime() + rules.settleAfterHours * HOUR_MS),
        settleBy: new Date(now.getTime() + rules.settleByHours * HOUR_MS),
      })),
  );
}

export type Settlement = {
  line: repo.InteractionRow;
  status: 'credited' | 'void';
  note: string | null;
};

/**
 * Settles re-checked lines in one transaction; credited members get an author row and their totals are
 * recomputed (an interaction counts in the week it settled).
 */
export async function applySettlements(
  db: Kysely<Database>,
  settlements: readonly Settlement[],
  deletedOfficialPosts: readonly string[],
  now: Date,
): Promise<void> {
  if (settlements.length === 0 && deletedOfficialPosts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const id of deletedOfficialPosts) await repo.markOfficialPostDeleted(trx, id);
    for (const s of settlements) {
      await repo.settleInteraction(
        trx,
        { memberId: s.line.member_id, postId: s.line.post_id, kind: s.line.kind },
        { status: s.status, at: now, note: s.note },
      );
    }
    const credited = settlements.filter((s) => s.status === 'credited').map((s) => s.line.member_id);
    await repo.ensureInteractionAuthors(trx, credited, now);
    await markAuthorsDirty(trx, credited);
  });
}

export {
  anyLinkedMember,
  dueInteractions,
  membersSharingLikes,
  watchedOfficialPosts,
} from './interactions.repository';
