import * as z from 'zod/mini';
import { checked } from './checked';

/* @__NO_SIDE_EFFECTS__ */
const count = (name: string) =>
  checked(
    z.number({ error: `${name} must be a number` }),
    z.int(`${name} must be a whole number`),
    z.gte(0, `${name} must be ≥ 0`),
  );
/**
 * The forms an official account's handle can take on some network: a bare name (1–15 letters, digits or _) or a
 * full domain handle (`team.example.com`: dot-separated labels of letters, digits and inner hyphens, the last one
 * starting with a letter). Which of them the configured network accepts is the network's rule (the server checks
 * it when the operator changes the rules); the contract only keeps out what no network has.
 */
export const OFFICIAL_HANDLE =
  /^(?:[A-Za-z0-9_]{1,15}|(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)$/;
/* @__NO_SIDE_EFFECTS__ */
const handleOf = (what: string) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((value: string) => value.trim().replace(/^@/, '')),
    ),
    checked(
      z.string(),
      z.maxLength(253, `${what} are at most 253 characters`),
      z.regex(
        OFFICIAL_HANDLE,
        `${what} are a name (1–15 letters, digits or _) or a full domain handle (team.example.com)`,
      ),
    ),
  );
const handle = handleOf('official handles');
const term = checked(
  z.string(),
  z.trim(),
  z.minLength(1, 'keywords and hashtags are not empty'),
  z.maxLength(60, 'keywords and hashtags are at most 60 characters'),
);

/** Points per engagement a tracked post receives (DESIGN §4: like 1, reply 2, repost 2, quote 3). */
export const postWeightsSchema = z.object({
  like: count('weights.like'),
  reply: count('weights.reply'),
  repost: count('weights.repost'),
  quote: count('weights.quote'),
});

/** One-time Mana for a linked member's like, reply or repost of an official post. */
export const interactionRewardsSchema = z.object({
  like: count('interactionRewards.like'),
  reply: count('interactionRewards.reply'),
  repost: count('interactionRewards.repost'),
});

/**
 * The programme's rules (DESIGN §4), one validated set: what is tracked, how Mana is computed, and the limits.
 * Operators change them; the server stores every version and the web shows the numbers.
 */
export const programmeRulesSchema = checked(
  z.object({
    keywords: checked(z.array(term), z.maxLength(20)),
    /** Without the leading '#'. */
    hashtags: checked(
      z.array(
        z.pipe(
          term,
          z.transform((value: string) => value.replace(/^#/, '')),
        ),
      ),
      z.maxLength(20),
    ),
    /** The programme's own accounts: mentioning one makes a post tracked; their posts earn interaction Mana. */
    officialHandles: checked(
      z.array(handle),
      z.minLength(1, 'at least one official handle'),
      z.maxLength(10),
    ),
    weights: postWeightsSchema,
    /** Multiplier of a linked author's posts made from the moment of linking. */
    linkedMultiplier: checked(z.number(), z.int(), z.gte(1), z.lte(100)),
    /** Tracked posts per author and UTC day that earn Mana. */
    dailyLimit: checked(z.number(), z.int(), z.gte(1), z.lte(1000)),
    /** Metrics are refreshed while a post is younger than this; afterwards its Mana is final. */
    refreshWindowDays: checked(z.number(), z.int(), z.gte(1), z.lte(30)),
    referralReward: count('referralReward'),
    interactionRewards: interactionRewardsSchema,
    /** Pending interactions are re-checked no earlier than `settleAfterHours` and settled by `settleByHours`. */
    settleAfterHours: checked(z.number(), z.int(), z.gte(0), z.lte(240)),
    settleByHours: checked(z.number(), z.int(), z.gte(1), z.lte(480)),
    /** Anti-bot gate of referees: account age and followers. */
    minAccountAgeDays: count('minAccountAgeDays'),
    minFollowers: count('minFollowers'),
    /**
     * Handles no member may name as their referrer (HANDLE_RESERVED), beside the official accounts and the
     * server's RESERVED_HANDLES; the same forms as official handles, checked against the network the same way.
     * Optional: rules stored before it existed read as none.
     */
    reservedHandles: z._default(
      checked(z.array(handleOf('reserved handles')), z.maxLength(100, 'at most 100 reserved handles')),
      [],
    ),
  }),
  z.refine((rules) => rules.keywords.length + rules.hashtags.length + rules.officialHandles.length > 0, {
    error: 'the programme needs at least one keyword, hashtag or official handle',
  }),
  z.refine((rules) => rules.settleByHours >= rules.settleAfterHours, {
    error: 'settleByHours must be at least settleAfterHours',
    // Shown at the field a form can fix.
    path: ['settleByHours'],
  }),
);
export type ProgrammeRules = z.infer<typeof programmeRulesSchema>;
export type PostWeights = z.infer<typeof postWeightsSchema>;

/**
 * `GET /api/programme` → the rules members may know (the web shows these numbers); the anti-bot gate stays
 * private, so it cannot be gamed to the unit.
 */
export const programmeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    version: checked(z.number(), z.int(), z.gte(1)),
    keywords: z.array(z.string()),
    hashtags: z.array(z.string()),
    officialHandles: z.array(z.string()),
    weights: postWeightsSchema,
    linkedMultiplier: checked(z.number(), z.int()),
    dailyLimit: checked(z.number(), z.int()),
    refreshWindowDays: checked(z.number(), z.int()),
    referralReward: checked(z.number(), z.int()),
    interactionRewards: interactionRewardsSchema,
    settleAfterHours: checked(z.number(), z.int()),
    settleByHours: checked(z.number(), z.int()),
  }),
});
export type ProgrammeResponse = z.infer<typeof programmeResponseSchema>;
