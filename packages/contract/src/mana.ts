import * as z from 'zod/mini';
import { checked, wholeNumber } from './checked';
import { postWeightsSchema } from './programme';

const flagValues = ['true', 'false', '1', '0'] as const;
/* @__NO_SIDE_EFFECTS__ */
const flag = (name: string) =>
  z.pipe(
    z.enum(flagValues, { error: `${name} must be true or false` }),
    z.transform((value: (typeof flagValues)[number]) => value === 'true' || value === '1'),
  );

// eslint-disable-next-line no-control-regex -- control characters are exactly what this matches
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * Search text: control characters dropped (no handle, name or post holds them, and PostgreSQL refuses a NUL in
 * text), trimmed, a leading @ ignored; empty means no search.
 */
const searchText = z.pipe(
  checked(
    z.string({ error: 'search must be text' }),
    z.maxLength(100, { error: 'search must be at most 100 characters' }),
  ),
  z.transform((value: string) =>
    value.replace(CONTROL_CHARACTERS, '').trim().replace(/^@+/, '').toLowerCase(),
  ),
);

/**
 * Query of `GET /api/mana` and `GET /api/posts` (SPEC §7): `limit` 1–100 (default 20), `offset` ≥ 0, optional
 * `search`, `weekly=true` for the current ISO week. Unknown parameters are ignored (cache busters).
 */
export const leaderboardQuerySchema = z.object({
  limit: z._default(wholeNumber('limit', 1, 100), 20),
  offset: z._default(wholeNumber('offset', 0, 1_000_000), 0),
  search: z._default(searchText, ''),
  weekly: z._default(flag('weekly'), false),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/** One leaderboard row (SPEC §3 Author). `rank` is global within the period, also in search results. */
export const manaAuthorSchema = z.object({
  authorId: z.string(),
  authorName: z.string(),
  displayName: z.string(),
  profileImageUrl: z.nullable(z.string()),
  rank: checked(z.number(), z.int(), z.gte(1)),
  totalPosts: checked(z.number(), z.int(), z.gte(0)),
  totalMana: checked(z.number(), z.int()),
  likes: checked(z.number(), z.int(), z.gte(0)),
  retweets: checked(z.number(), z.int(), z.gte(0)),
  replies: checked(z.number(), z.int(), z.gte(0)),
  quotes: checked(z.number(), z.int(), z.gte(0)),
  linked: z.boolean(),
});
export type ManaAuthor = z.infer<typeof manaAuthorSchema>;

/** `GET /api/mana` → the leaderboard page. `period` is 'all' or the ISO week's Monday (YYYY-MM-DD). */
export const manaResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    authors: z.array(manaAuthorSchema),
    total: checked(z.number(), z.int(), z.gte(0)),
    period: z.string(),
    updatedAt: z.nullable(z.iso.datetime({ offset: true })),
  }),
});
export type ManaResponse = z.infer<typeof manaResponseSchema>;

/** One tracked post of the grid (SPEC §3 Post). */
export const trackedPostSchema = z.object({
  id: z.string(),
  url: z.url(),
  content: z.string(),
  authorName: z.string(),
  authorId: z.string(),
  profileImageUrl: z.nullable(z.string()),
  createdAt: z.iso.datetime({ offset: true }),
  likes: checked(z.number(), z.int(), z.gte(0)),
  retweets: checked(z.number(), z.int(), z.gte(0)),
  replies: checked(z.number(), z.int(), z.gte(0)),
  quotes: checked(z.number(), z.int(), z.gte(0)),
  mana: checked(z.number(), z.int()),
  /** After the refresh window the metrics, and so the Mana, no longer move. */
  final: z.boolean(),
  overDailyLimit: z.boolean(),
});
export type TrackedPost = z.infer<typeof trackedPostSchema>;

/** `GET /api/posts` → tracked posts by Mana within the period, newest first on ties. */
export const postsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(trackedPostSchema),
});
export type PostsResponse = z.infer<typeof postsResponseSchema>;

/** `GET /api/daily-post-limit`. */
export const dailyLimitResponseSchema = z.object({
  success: z.literal(true),
  config: z.object({ dailyLimit: checked(z.number(), z.int(), z.gte(1)) }),
});
export type DailyLimitResponse = z.infer<typeof dailyLimitResponseSchema>;

/** Path of `GET /api/daily-post-limit/user/:authorId`: a network user id (digits for X). */
export const dailyLimitUserParamsSchema = z.object({
  authorId: checked(
    z.string(),
    z.regex(/^[A-Za-z0-9:._-]{1,64}$/, {
      error: 'authorId must be a network user id (1–64 letters, digits, :._-)',
    }),
  ),
});

/** `GET /api/daily-post-limit/user/:authorId` → today's (UTC) tracked posts; unknown authors count 0. */
export const dailyLimitUserResponseSchema = z.object({
  success: z.literal(true),
  user: z.object({
    authorId: z.string(),
    currentCount: checked(z.number(), z.int(), z.gte(0)),
    dailyLimit: checked(z.number(), z.int(), z.gte(1)),
    resetsAt: z.iso.datetime({ offset: true }),
  }),
});
export type DailyLimitUserResponse = z.infer<typeof dailyLimitUserResponseSchema>;

/** Query of `GET /api/mana/:authorId/breakdown`. */
export const breakdownQuerySchema = z.object({ weekly: z._default(flag('weekly'), false) });

const postLineSchema = z.object({
  type: z.literal('post'),
  postId: z.string(),
  url: z.url(),
  createdAt: z.iso.datetime({ offset: true }),
  likes: checked(z.number(), z.int()),
  replies: checked(z.number(), z.int()),
  reposts: checked(z.number(), z.int()),
  quotes: checked(z.number(), z.int()),
  multiplier: checked(z.number(), z.int()),
  /** 0 over the daily limit or once the post is deleted or protected. */
  mana: checked(z.number(), z.int()),
  status: z.enum(['live', 'deleted', 'protected']),
  final: z.boolean(),
  overDailyLimit: z.boolean(),
});
const referralLineSchema = z.object({
  type: z.literal('referral'),
  /** Named only to the member themself (by X-User-Id); others see `count` referrals in one line. */
  refereeHandle: z.nullable(z.string()),
  count: checked(z.number(), z.int(), z.gte(1)),
  mana: checked(z.number(), z.int()),
  at: z.nullable(z.iso.datetime({ offset: true })),
});
const interactionLineSchema = z.object({
  type: z.literal('interaction'),
  postId: z.string(),
  kind: z.enum(['like', 'reply', 'repost']),
  /** Void: the interaction was gone at its re-check (or the post was deleted); it earns nothing. */
  status: z.enum(['pending', 'credited', 'void']),
  /** Counted once credited; a pending line shows the reward it may earn; a void line is 0. */
  mana: checked(z.number(), z.int()),
  reward: checked(z.number(), z.int()),
  /** When it was seen (pending) or settled (credited, void). */
  at: z.iso.datetime({ offset: true }),
  /** Its due dates: re-checked no earlier than `checkAfter`, settled by `settleBy`. */
  checkAfter: z.iso.datetime({ offset: true }),
  settleBy: z.iso.datetime({ offset: true }),
});

/**
 * `GET /api/mana/:authorId/breakdown` (beyond SPEC): the ledger lines behind an author's total in the period.
 * `totalMana` is the sum of the lines' `mana` (pending interactions add nothing until credited).
 */
export const breakdownResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    authorId: z.string(),
    authorName: z.string(),
    period: z.string(),
    totalMana: checked(z.number(), z.int()),
    /** The programme's post weights the post lines were scored with (Mana = multiplier × Σ weight × count). */
    weights: postWeightsSchema,
    lines: z.array(z.discriminatedUnion('type', [postLineSchema, referralLineSchema, interactionLineSchema])),
  }),
});
export type BreakdownResponse = z.infer<typeof breakdownResponseSchema>;
export type BreakdownLine = BreakdownResponse['data']['lines'][number];

/** Path of the breakdown: the author's network user id. */
export const breakdownParamsSchema = dailyLimitUserParamsSchema;
