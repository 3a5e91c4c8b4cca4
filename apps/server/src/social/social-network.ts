/**
 * The social-network port (DESIGN §8). The engine, rules, ledger and API see only these types; each network
 * (X now, Bluesky later) is an adapter that maps its own shapes onto them.
 */

export type NetworkName = 'x' | 'bluesky';

/**
 * Which official handles a network can have. The rules' contract takes every form some network uses (a bare name,
 * a full domain handle); each network's adapter says which of them it accepts, and why not, in its own words.
 */
export type OfficialHandleRule = {
  /** Null when the network can have an account with this handle, else what is wrong with it. */
  problem(handle: string): string | null;
};

/** A person on the network, as far as the programme cares. */
export type SocialAuthor = {
  networkUserId: string;
  handle: string;
  displayName: string;
  avatarUrl: string | null;
  createdAt: Date | null;
  followers: number | null;
  protected: boolean;
};

export type PostKind = 'original' | 'quote' | 'reply' | 'repost';

export type PostMetrics = { likes: number; replies: number; reposts: number; quotes: number };

export type SocialPost = {
  id: string;
  authorId: string;
  text: string;
  createdAt: Date;
  kind: PostKind;
  /** The post quoted, replied to or reposted, when kind is not 'original'. */
  referencedPostId: string | null;
  conversationId: string | null;
  metrics: PostMetrics;
};

/** Why a post asked for by id did not come back. */
export type MissingPost = { id: string; reason: 'deleted' | 'protected' | 'other'; detail: string };

export type PostPage = {
  posts: SocialPost[];
  authors: SocialAuthor[];
  /** Newest id of this search run, to resume from next time (X since_id / Bluesky cursor). */
  newestId: string | null;
  nextCursor: string | null;
};

export type Interaction = { memberNetworkUserId: string; postId: string; kind: 'like' | 'reply' | 'repost' };

/**
 * What to search for, in the programme's terms; each adapter writes its network's own query syntax from it, so
 * no job ever builds one.
 * - `matching`: originals and quotes (never plain reposts) naming any keyword or phrase, #hashtag (given
 *   without '#') or @mention of a handle (given without '@');
 * - `postsOf`: the accounts' own posts (originals and quotes, neither reposts nor replies);
 * - `repliesTo`: the replies in the conversation of one post.
 */
export type PostQuery =
  | {
      type: 'matching';
      keywords: readonly string[];
      hashtags: readonly string[];
      mentions: readonly string[];
    }
  | { type: 'postsOf'; handles: readonly string[] }
  | { type: 'repliesTo'; postId: string };

/**
 * A query as the network runs it, for the operator to see: its text, and the longest the network accepts (null
 * where nothing limits it, e.g. a filter applied to an event stream).
 */
export type QueryPreview = { text: string; maxLength: number | null };

/** What a record does to a post: it likes, reposts, replies to or quotes it. */
export type RecordKind = 'like' | 'repost' | 'reply' | 'quote';

/** A public record that counts on a post: its address (Bluesky: an AT URI), content hash, author and time. */
export type PostRecord = { id: string; cid: string | null; authorId: string; createdAt: Date };

/**
 * Where a person sees things on the network's own public pages (the records page links them, issue 30): a
 * record's own page, or null where it has none (a like or a repost: link its author instead), and an account's.
 */
export type NetworkPages = {
  record(record: {
    kind: RecordKind;
    id: string;
    authorId: string;
    authorHandle: string | null;
  }): string | null;
  profile(account: { id: string; handle: string | null }): string | null;
};

/** Calls one run may still spend on reading records (shared by every read of the run; each call takes one). */
export type CallBudget = { left: number };

/**
 * What reading a post's records of one kind found. `complete`: the network's list was read to its end and every
 * account it names was looked up; else `stopped` says why not (the run's budget spent, a rate limit, an error).
 */
export type RecordsFound = {
  records: PostRecord[];
  complete: boolean;
  stopped?: 'budget' | 'rate-limited' | 'error';
  calls: number;
};

/** How a stream network's reconciling reads trust the stream (see `SocialNetwork.streamAuthority`). */
export type StreamAuthority = { missingGraceMs: number; caughtUpMs: number };

/** The operations the programme needs from a network. */
export interface SocialNetwork {
  readonly name: NetworkName;
  /** One page of posts matching a query, newest first, newer than `sinceId`. */
  findPosts(
    query: PostQuery,
    options: { sinceId?: string; cursor?: string; startTime?: Date },
  ): Promise<PostPage>;
  /** How far back `findPosts` reaches (X recent search: 7 days); a `sinceId` older than that is not sent. */
  readonly searchReachMs: number;
  /** Current metrics of up to `metricsBatchSize` posts; the missing ones say why; their authors as now. */
  readMetrics(
    ids: readonly string[],
  ): Promise<{ posts: SocialPost[]; missing: MissingPost[]; authors: SocialAuthor[] }>;
  readonly metricsBatchSize: number;
  /**
   * Who has the last word on a tracked post's counts and existence (ADR 013). Absent: `readMetrics` does (X's
   * metrics API): the refresh overwrites counts with it, and a post it reports gone stops counting at once.
   * Present: the network's event stream counted what it saw, and `readMetrics` reads an index that may lag it
   * (Bluesky's AppView): a reading may raise a count the stream missed, never lower one below what the stream
   * counted; a post it does not return is deleted only once it has been missing for `missingGraceMs` while the
   * stream (its stored cursor) is within `caughtUpMs` of now.
   */
  readonly streamAuthority?: StreamAuthority;
  /**
   * The records behind a post's count of one kind, read from the network's public lists, newest first (Bluesky:
   * `getQuotes` and the post's thread give records; `getLikes` and `getRepostedBy` give accounts, whose record is
   * then found in their own repository). Records by `knownAuthors` or with an id in `knownIds` are not looked for;
   * the read stops once it found `want` records. Absent where the network names no records (X): its counts stay
   * "not traceable" (issue 30).
   */
  recordsOf?(
    post: { id: string; createdAt: Date },
    kind: RecordKind,
    options: {
      knownAuthors: ReadonlySet<string>;
      knownIds: ReadonlySet<string>;
      want: number;
      budget: CallBudget;
    },
  ): Promise<RecordsFound>;
  /** Members who reposted an official post (one page). */
  repostsOf(postId: string, cursor?: string): Promise<{ authors: SocialAuthor[]; nextCursor: string | null }>;
  /** Quotes of an official post (one page). */
  quotesOf(postId: string, cursor?: string): Promise<PostPage>;
  /**
   * Who liked a post (one page), where likes are public (Bluesky); absent where only each member may read their
   * own likes (X), and `likedBy` with the member's token is used instead.
   */
  likersOf?(postId: string, cursor?: string): Promise<{ authors: SocialAuthor[]; nextCursor: string | null }>;
  /** Posts a member liked, read with the member's own credentials (one page). */
  likedBy(memberNetworkUserId: string, memberToken: string, cursor?: string): Promise<PostPage>;
  /** Looks a handle up. */
  authorByHandle(handle: string): Promise<SocialAuthor | null>;
  /** The public URL of a post. */
  postUrl(handle: string, postId: string): string;
  /** What a query becomes on this network and its length limit (no call is made). */
  describeQuery(query: PostQuery): QueryPreview;
}

/** The member as the network reports them when they link (the anti-bot gate reads `createdAt` and `followers`). */
export type LinkedProfile = {
  /** The stable id (X: the numeric user id; Bluesky: the DID). A handle change is never a new member. */
  networkUserId: string;
  handle: string;
  avatarUrl: string | null;
  createdAt: Date | null;
  followers: number;
};

/** What the network granted for calls on the member's behalf; the caller seals it before storing it. */
export type NetworkCredentials = {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms when the access token stops working. */
  expiresAt: number;
  scopes: string[];
};

/**
 * A started link: where to send the browser, the one-time `state` that comes back on the callback, and a secret
 * the adapter needs again to finish (X: the PKCE verifier), stored with the attempt and never sent to the browser.
 */
export type LinkStart = { authorizeUrl: string; state: string; verifier: string };

/** Thrown by `finish` when the network refuses the attempt (cancelled, expired, bad code): not our fault. */
export class LinkRefusedError extends Error {
  override readonly name = 'LinkRefusedError';
}

/**
 * The identity half of the port: linking a member's account. Routes, attempts, the nonce cookie, the browser
 * binding, sealing and audit stay in modules/linking, the same for every network; only this differs.
 */
export interface NetworkLinking {
  readonly name: NetworkName;
  /** The member's start (POST) and the network's return (GET) paths; X keeps SPEC's `/auth/twitter/*`. */
  readonly startPath: string;
  readonly callbackPath: string;
  /** Whether the member names their account (a handle) before the network's sign-in page (Bluesky: which PDS). */
  readonly needsHandle: boolean;
  /**
   * The origin the network sends the browser back to, when it is not PUBLIC_ORIGIN (a loopback client must return
   * to 127.0.0.1 while the site runs on localhost); the callback there forwards the browser to PUBLIC_ORIGIN.
   */
  readonly returnOrigin?: string;
  /** A new attempt returning to `callbackUrl` (`handle`: networks where the member names their account first). */
  start(input: { callbackUrl: string; handle?: string }): Promise<LinkStart>;
  /** The callback's parameters → the member's profile and credentials; LinkRefusedError when refused. */
  finish(
    callback: URLSearchParams,
    attempt: { state: string; verifier: string; callbackUrl: string },
  ): Promise<{ profile: LinkedProfile; credentials: NetworkCredentials }>;
  /** The credentials, refreshed when about to expire (the same object when nothing had to change). */
  fresh(credentials: NetworkCredentials, now: number): Promise<NetworkCredentials>;
  /** Ends a grant (on unlink, or when a new login supersedes it). */
  revoke(token: string): Promise<void>;
}
