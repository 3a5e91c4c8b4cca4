import * as z from 'zod/mini';
import { freeKeys } from './admin-json';
import { checked } from './checked';

/** The fairness signals (issue 13): advice for the operator, never a penalty by itself. */
export const fairnessFlagKindSchema = z.enum(['ring', 'referral_chain', 'spike']);
export type FairnessFlagKind = z.infer<typeof fairnessFlagKindSchema>;

/** One flag: whom it is about, why (a sentence), how strong (0..1), the evidence, and any operator review. */
export const fairnessFlagSchema = z.object({
  subjectId: z.string(),
  handle: z.string(),
  kind: fairnessFlagKindSchema,
  // At most 1 as a refinement: z.lte's code would join the main page's first load for this one bound (issue 13).
  score: checked(
    z.number(),
    z.gte(0),
    z.refine((score) => score <= 1, 'score must be at most 1'),
  ),
  reason: z.string(),
  /** Kind-specific figures (rings: cluster, density, share; chains: depth, width, fresh; spikes: day, median). */
  evidence: freeKeys(z.unknown()),
  firstFlaggedAt: z.iso.datetime(),
  computedAt: z.iso.datetime(),
  review: z.nullable(z.object({ at: z.iso.datetime(), by: z.string(), note: z.string() })),
});
export type FairnessFlag = z.infer<typeof fairnessFlagSchema>;

/** The list of flags, strongest first. */
export const fairnessFlagsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    flags: z.array(fairnessFlagSchema),
    total: checked(z.number(), z.int(), z.gte(0)),
    /** When the detector last ran (null before its first run). */
    computedAt: z.nullable(z.iso.datetime()),
  }),
});
export type FairnessFlagsResponse = z.infer<typeof fairnessFlagsResponseSchema>;

/** One member's flags (`GET /api/admin/fairness/members/:id`). */
export const memberFairnessResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ subjectId: z.string(), flags: z.array(fairnessFlagSchema) }),
});
export type MemberFairnessResponse = z.infer<typeof memberFairnessResponseSchema>;

/** An operator's review of a flag (`POST /api/admin/fairness/review`): what they concluded, in a sentence. */
export const fairnessReviewRequestSchema = z.object({
  subjectId: checked(z.string(), z.minLength(1), z.maxLength(200)),
  kind: fairnessFlagKindSchema,
  note: checked(z.string(), z.trim(), z.minLength(1, 'say what you concluded'), z.maxLength(500)),
});
export type FairnessReviewRequest = z.infer<typeof fairnessReviewRequestSchema>;

/** What a detector run did (`POST /api/admin/fairness/recompute`, and the worker's job). */
export const fairnessRunResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    flags: z.object({ ring: z.number(), referral_chain: z.number(), spike: z.number() }),
    authors: z.number(),
    ms: z.number(),
  }),
});
export type FairnessRunResponse = z.infer<typeof fairnessRunResponseSchema>;
