import * as z from 'zod/mini';
import { checked, wholeNumber } from './checked';

/**
 * The records behind a breakdown line (issue 30, DESIGN §9): `GET /api/mana/:authorId/records`. A post line's
 * records are the likes, reposts, replies and quotes it counts (or saw and counts nothing, with why); a referral
 * line's are the referred accounts; an interaction line's is the member's own like, reply or repost of an official
 * post. Newest first, a page at a time.
 */

/** Which line's records: a post's (the default), the referrals, or the interactions with official posts. */
export const recordLineKinds = ['post', 'referral', 'interaction'] as const;
export type RecordLineKind = (typeof recordLineKinds)[number];

/**
 * Query of `GET /api/mana/:authorId/records`: `line` (post, referral or interaction), `post` (the post's id: an AT
 * URI on Bluesky, so a query parameter; required for a post line, optional for interactions: the official post),
 * `page` from 1 and `limit` 1–100 (default 50).
 */
export const recordsQuerySchema = checked(
  z.object({
    line: z._default(
      z.enum(recordLineKinds, { error: 'line must be post, referral or interaction' }),
      'post',
    ),
    post: z.optional(
      checked(
        z.string({ error: 'post must be a post id' }),
        z.minLength(1, { error: 'post must be a post id' }),
        z.maxLength(512, { error: 'post must be at most 512 characters' }),
        // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
        z.regex(/^[^\u0000-\u001f\u007f]+$/, { error: 'post must be a post id' }),
      ),
    ),
    page: z._default(wholeNumber('page', 1, 10_000), 1),
    limit: z._default(wholeNumber('limit', 1, 100), 50),
  }),
  z.refine((q) => q.line !== 'post' || q.post !== undefined, {
    error: 'post is required for a post line',
    path: ['post'],
  }),
);
export type RecordsQuery = z.infer<typeof recordsQuerySchema>;

/**
 * Why a record counts nothing:
 * - `deleted`: its author deleted it (it took back what it gave);
 * - `late`: it came once its post's counts no longer moved (past the refresh window);
 * - `duplicate`: a second like (or repost) of the same post by the same account while the first counts: the
 *   network's AppView keeps one per account and post, and so does the programme;
 * - `post-deleted` / `post-protected`: the post is gone (its line is 0);
 * - `over-daily-limit`: the post is over its author's daily limit (its line is 0);
 * - `undone`, `official-post-deleted`, `unconfirmed`: an interaction gone at its re-check, on a deleted official
 *   post, or not confirmed within the settle window;
 * - `referee-disqualified`, `referee-unlinked`: a referral whose referee no longer counts.
 */
export const recordVoidReasons = [
  'deleted',
  'late',
  'duplicate',
  'post-deleted',
  'post-protected',
  'over-daily-limit',
  'undone',
  'official-post-deleted',
  'unconfirmed',
  'referee-disqualified',
  'referee-unlinked',
] as const;
export type RecordVoidReason = (typeof recordVoidReasons)[number];

const time = z.iso.datetime({ offset: true });

/** An account as a record names it: its network user id (a DID on Bluesky), its handle when known, its page. */
const recordAccountSchema = z.object({
  id: z.nullable(z.string()),
  handle: z.nullable(z.string()),
  url: z.nullable(z.string()),
});

/** One record of a line. */
export const lineRecordSchema = z.object({
  kind: z.enum(['like', 'repost', 'reply', 'quote', 'referral']),
  /** The record's address (an AT URI on Bluesky; a post id on X), null where the network names none. */
  uri: z.nullable(z.string()),
  /** Its content hash (a CID), null where the network has none. */
  cid: z.nullable(z.string()),
  author: recordAccountSchema,
  /** When it was made (a referral: when the referee linked through the referrer). */
  at: time,
  state: z.enum(['counted', 'pending', 'void']),
  /** Set when `state` is void. */
  reason: z.nullable(z.enum(recordVoidReasons)),
  /** A pending interaction: re-checked no earlier than `checkAfter`, settled by `dueAt`. */
  checkAfter: z.nullable(time),
  dueAt: z.nullable(time),
  /** Who saw it: the event stream, or the network's lists when a refresh raised a count the stream missed. */
  source: z.nullable(z.enum(['stream', 'appview'])),
  /** Where a person sees it: the record's own page, or (`urlIsAuthor`) its author's, when it has none (a like). */
  url: z.nullable(z.string()),
  urlIsAuthor: z.boolean(),
});
export type LineRecord = z.infer<typeof lineRecordSchema>;

const countsSchema = z.object({
  likes: checked(z.number(), z.int(), z.gte(0)),
  replies: checked(z.number(), z.int(), z.gte(0)),
  reposts: checked(z.number(), z.int(), z.gte(0)),
  quotes: checked(z.number(), z.int(), z.gte(0)),
});

/** `GET /api/mana/:authorId/records` → one page of a line's records, newest first. */
export const recordsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    authorId: z.string(),
    line: z.enum(recordLineKinds),
    post: z.nullable(z.string()),
    page: checked(z.number(), z.int(), z.gte(1)),
    limit: checked(z.number(), z.int(), z.gte(1)),
    hasMore: z.boolean(),
    /**
     * A post line: its counts and the points among them with no record the programme can name ("not
     * traceable": a count read from the network's figures, or a list that could not be read in full).
     */
    counts: z.nullable(countsSchema),
    notTraceable: z.nullable(countsSchema),
    records: z.array(lineRecordSchema),
  }),
});
export type RecordsResponse = z.infer<typeof recordsResponseSchema>;
