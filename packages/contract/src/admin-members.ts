import * as z from 'zod/mini';
import { freeKeys } from './admin-json';
import { appealSchema } from './appeals';
import { checked } from './checked';
import { breakdownResponseSchema } from './mana';

/**
 * The console's Members section (issue 13, section 3): search authors and linked members, a member's page
 * (profile, linked account, Mana breakdown, referrals both ways, disqualification, appeals, history), and
 * disqualify / requalify with a reason. Services: modules/members (search, detail) and
 * modules/mana/disqualification.service (setAuthorDisqualified).
 */

/** One search hit: a tracked author, a linked member, or both (same network user id). */
export const memberSummarySchema = z.object({
  /** The network user id: the member page's key. */
  memberId: z.string(),
  handle: z.string(),
  displayName: z.nullable(z.string()),
  tracked: z.boolean(),
  linked: z.boolean(),
  disqualified: z.boolean(),
  /** All-time Mana and rank, when the author is on the board. */
  mana: z.nullable(z.number()),
  rank: z.nullable(z.number()),
});
export type MemberSummary = z.infer<typeof memberSummarySchema>;
export const memberSearchResultSchema = z.object({
  members: z.array(memberSummarySchema),
  total: z.number(),
});
export type MemberSearchResult = z.infer<typeof memberSearchResultSchema>;

const referralSchema = z.object({
  handle: z.string(),
  memberId: z.string(),
  status: z.enum(['credited', 'void']),
  rewardMana: z.number(),
  at: z.string(),
});

/** One audit line about the member (subject: their network user id or their account). */
export const memberHistoryEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  details: freeKeys(z.unknown()),
});

/** A member's page in the console. */
export const memberDetailSchema = z.object({
  memberId: z.string(),
  profile: z.nullable(
    z.object({
      handle: z.string(),
      displayName: z.string(),
      avatarUrl: z.nullable(z.string()),
      firstTrackedAt: z.string(),
    }),
  ),
  account: z.nullable(
    z.object({
      handle: z.string(),
      linkedAt: z.string(),
      followers: z.number(),
      networkCreatedAt: z.nullable(z.string()),
      browsers: z.number(),
    }),
  ),
  /** All-time Mana lines (the public breakdown, also for a disqualified author); null when never tracked. */
  breakdown: z.nullable(breakdownResponseSchema.shape.data),
  referrals: z.object({ referredBy: z.nullable(referralSchema), referred: z.array(referralSchema) }),
  disqualification: z.object({
    disqualified: z.boolean(),
    reason: z.nullable(z.string()),
    by: z.nullable(z.string()),
    at: z.nullable(z.string()),
  }),
  appeals: z.array(appealSchema),
  history: z.array(memberHistoryEntrySchema),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

/** Disqualify or requalify a member by handle, with the reason the member will read on their card. */
export const setQualificationRequestSchema = z.strictObject({
  handle: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(253)),
  disqualified: z.boolean(),
  reason: checked(z.string(), z.trim(), z.minLength(3), z.maxLength(500)),
});
export type SetQualificationRequest = z.infer<typeof setQualificationRequestSchema>;
export const setQualificationResultSchema = z.object({
  authorId: z.string(),
  handle: z.string(),
  referralsChanged: z.number(),
});
