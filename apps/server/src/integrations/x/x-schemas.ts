import { z } from 'zod';

// Shapes of X API v2 answers, as documented at https://docs.x.com/x-api (Tweet and User objects, the
// `data`/`includes`/`meta`/`errors` envelope, Problem objects). Objects are `.loose()`: X adds fields over time
// and the client must not break on them.

export const xPublicMetricsSchema = z
  .object({
    retweet_count: z.number().int().nonnegative(),
    reply_count: z.number().int().nonnegative(),
    like_count: z.number().int().nonnegative(),
    quote_count: z.number().int().nonnegative(),
    bookmark_count: z.number().int().nonnegative().optional(),
    impression_count: z.number().int().nonnegative().optional(),
  })
  .loose();

export const xReferencedTweetSchema = z.object({
  type: z.enum(['retweeted', 'quoted', 'replied_to']),
  id: z.string(),
});

/** A Tweet object with the fields the programme asks for. */
export const xTweetSchema = z
  .object({
    id: z.string().regex(/^\d+$/),
    text: z.string(),
    author_id: z.string().optional(),
    created_at: z.iso.datetime({ offset: true }).optional(),
    conversation_id: z.string().optional(),
    public_metrics: xPublicMetricsSchema.optional(),
    referenced_tweets: z.array(xReferencedTweetSchema).optional(),
  })
  .loose();
export type XTweet = z.infer<typeof xTweetSchema>;

/** A User object with the fields the programme asks for. */
export const xUserSchema = z
  .object({
    id: z.string().regex(/^\d+$/),
    name: z.string(),
    username: z.string(),
    profile_image_url: z.string().optional(),
    created_at: z.iso.datetime({ offset: true }).optional(),
    protected: z.boolean().optional(),
    public_metrics: z
      .object({
        followers_count: z.number().int().nonnegative(),
        following_count: z.number().int().nonnegative(),
        tweet_count: z.number().int().nonnegative(),
        listed_count: z.number().int().nonnegative(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type XUser = z.infer<typeof xUserSchema>;

/** A Problem: X's partial error beside `data`, e.g. resource-not-found or not-authorized-for-resource. */
export const xProblemSchema = z
  .object({
    title: z.string(),
    detail: z.string().optional(),
    type: z.string(),
    value: z.string().optional(),
    resource_type: z.string().optional(),
    resource_id: z.string().optional(),
    parameter: z.string().optional(),
  })
  .loose();
export type XProblem = z.infer<typeof xProblemSchema>;

export const xMetaSchema = z
  .object({
    result_count: z.number().int().nonnegative().optional(),
    newest_id: z.string().optional(),
    oldest_id: z.string().optional(),
    next_token: z.string().optional(),
    previous_token: z.string().optional(),
  })
  .loose();

const includesSchema = z
  .object({ users: z.array(xUserSchema).optional(), tweets: z.array(xTweetSchema).optional() })
  .loose();

/** Answer of search/recent, tweets lookup, quote_tweets and liked_tweets. */
export const xTweetListSchema = z
  .object({
    data: z.array(xTweetSchema).optional(),
    includes: includesSchema.optional(),
    meta: xMetaSchema.optional(),
    errors: z.array(xProblemSchema).optional(),
  })
  .loose();
export type XTweetList = z.infer<typeof xTweetListSchema>;

/** Answer of retweeted_by (a list of users). */
export const xUserListSchema = z
  .object({
    data: z.array(xUserSchema).optional(),
    meta: xMetaSchema.optional(),
    errors: z.array(xProblemSchema).optional(),
  })
  .loose();
export type XUserList = z.infer<typeof xUserListSchema>;

/** Answer of users/me and users/by/username. */
export const xSingleUserSchema = z
  .object({ data: xUserSchema.optional(), errors: z.array(xProblemSchema).optional() })
  .loose();
export type XSingleUser = z.infer<typeof xSingleUserSchema>;

/** Error bodies: 400 invalid-request (`errors[].message`), 401/403/429 problem bodies. */
export const xErrorBodySchema = z
  .object({
    title: z.string().optional(),
    detail: z.string().optional(),
    type: z.string().optional(),
    status: z.number().optional(),
    errors: z.array(z.object({ message: z.string().optional() }).loose()).optional(),
  })
  .loose();
