import * as z from 'zod/mini';
import { freeKeys } from './admin-json';
import { checked } from './checked';
import { interactionRewardsSchema, postWeightsSchema } from './programme';

const version = checked(z.number(), z.int(), z.gte(1));

/**
 * The rules as stored and served (already parsed: no trimming or '#'/'@' stripping left to do), for the console's
 * answers; the serializer cannot run the input schema's transforms backwards.
 */
export const programmeRulesViewSchema = z.object({
  keywords: z.array(z.string()),
  hashtags: z.array(z.string()),
  officialHandles: z.array(z.string()),
  weights: postWeightsSchema,
  linkedMultiplier: z.number(),
  dailyLimit: z.number(),
  refreshWindowDays: z.number(),
  referralReward: z.number(),
  interactionRewards: interactionRewardsSchema,
  settleAfterHours: z.number(),
  settleByHours: z.number(),
  minAccountAgeDays: z.number(),
  minFollowers: z.number(),
  reservedHandles: z.array(z.string()),
});
export type ProgrammeRulesView = z.infer<typeof programmeRulesViewSchema>;

/** One stored version of the programme rules: who saved it, when, and from where (console, command, file). */
export const rulesVersionSchema = z.object({
  version,
  source: z.string(),
  createdAt: z.iso.datetime(),
  /** The audit log's actor for the save; null for the version seeded from the rules file. */
  actor: z.nullable(z.string()),
});
export type RulesVersion = z.infer<typeof rulesVersionSchema>;

/** Versions newest first, with the one in force. */
export const rulesVersionsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ versions: z.array(rulesVersionSchema), total: z.number(), current: version }),
});
export type RulesVersionsResponse = z.infer<typeof rulesVersionsResponseSchema>;

/** One changed field (dotted path, e.g. `weights.like`), its value before and after. */
export const rulesFieldChangeSchema = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /** For lists (keywords, hashtags, official handles): what came and went. */
  added: z.optional(z.array(z.unknown())),
  removed: z.optional(z.array(z.unknown())),
});
export type RulesFieldChange = z.infer<typeof rulesFieldChangeSchema>;

/** `GET /api/admin/rules/versions/:version/diff`: the version against the one before it (none for version 1). */
export const rulesDiffResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    version,
    previousVersion: z.nullable(version),
    changes: z.array(rulesFieldChangeSchema),
  }),
});
export type RulesDiffResponse = z.infer<typeof rulesDiffResponseSchema>;

/**
 * Validation in a shape a form shows: messages per field (dotted path, list items under their list, e.g.
 * `hashtags: ["item 2: keywords and hashtags are not empty"]`) and messages about the rules as a whole.
 */
export const rulesValidationSchema = z.object({
  valid: z.boolean(),
  fieldErrors: freeKeys(z.array(z.string())),
  formErrors: z.array(z.string()),
});
export type RulesValidation = z.infer<typeof rulesValidationSchema>;

/** A query the rules produce, as the network runs it, with its length against the network's limit (null: none). */
export const networkQueryPreviewSchema = z.object({
  /** `programme`: the tracked posts; `officialPosts`: the official accounts' own posts. */
  purpose: z.enum(['programme', 'officialPosts']),
  text: z.string(),
  length: z.number(),
  maxLength: z.nullable(z.number()),
  withinLimit: z.boolean(),
});
export type NetworkQueryPreview = z.infer<typeof networkQueryPreviewSchema>;

/** `POST /api/admin/rules/preview` and `PUT /api/admin/rules` body: the whole set, as the form holds it. */
export const rulesDraftRequestSchema = z.object({ rules: z.unknown() });
export type RulesDraftRequest = z.infer<typeof rulesDraftRequestSchema>;

/** The live preview of a draft: validation, the changes against the rules in force, and the network queries. */
export const rulesPreviewResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    currentVersion: version,
    validation: rulesValidationSchema,
    changes: z.array(rulesFieldChangeSchema),
    /** Empty while the draft is invalid. */
    queries: z.array(networkQueryPreviewSchema),
  }),
});
export type RulesPreviewResponse = z.infer<typeof rulesPreviewResponseSchema>;

/** A save: the new version (or the one in force, when nothing changed) and what the rescoring did. */
export const rulesSaveResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    version,
    unchanged: z.boolean(),
    changes: z.array(rulesFieldChangeSchema),
    rules: programmeRulesViewSchema,
    rescore: z.object({
      flaggedAuthors: z.number(),
      repricedLines: z.number(),
      recomputedAuthors: z.number(),
    }),
  }),
});
export type RulesSaveResponse = z.infer<typeof rulesSaveResponseSchema>;
