import type { AppBskyActorDefs, AppBskyFeedDefs } from '@atcute/bluesky';
import type {
  MissingPost,
  PostKind,
  PostPage,
  PostQuery,
  SocialAuthor,
  SocialNetwork,
  SocialPost,
  QueryPreview,
  StreamAuthority,
} from '../../social/social-network';
import type { BlueskyRecordReader } from './bluesky-records';
import { BlueskyAppView } from './bluesky-appview';
import { describeBlueskyQuery } from './bluesky-query';
import { parsePostId, postUrl } from './bluesky-ids';

/** The AppView's getPosts takes at most 25 URIs a call. */
export const GET_POSTS_BATCH = 25;

/** Pages of a list (likers, reposters) the AppView gives per call. */
const PAGE_LIMIT = 100;

/** Thrown for what the stream does instead of a search on Bluesky (see `findPosts`). */
export class NotOnBlueskyError extends Error {
  override readonly name = 'NotOnBlueskyError';
}

type ProfileLike = Pick<AppBskyActorDefs.ProfileViewBasic, 'did' | 'handle' | 'displayName' | 'avatar'> & {
  createdAt?: string;
  followersCount?: number;
};

/** An AppView profile → the port's author (a DID is the member's stable id). */
export function toSocialAuthor(profile: ProfileLike): SocialAuthor {
  return {
    networkUserId: profile.did,
    handle: profile.handle,
    displayName: profile.displayName?.trim() || profile.handle,
    avatarUrl: profile.avatar ?? null,
    createdAt: profile.createdAt ? new Date(profile.createdAt) : null,
    followers: profile.followersCount ?? null,
    // Bluesky has no protected accounts: every post is a public record.
    protected: false,
  };
}

type PostRecordShape = {
  text?: unknown;
  createdAt?: unknown;
  reply?: { parent?: { uri?: unknown }; root?: { uri?: unknown } };
  embed?: { $type?: unknown; record?: { uri?: unknown; record?: { uri?: unknown } } };
};

/** The post a record quotes (an embedded record, alone or with media), if any. */
export function quotedUri(record: PostRecordShape): string | null {
  const embed = record.embed;
  if (!embed || typeof embed !== 'object') return null;
  if (embed.$type === 'app.bsky.embed.record' && typeof embed.record?.uri === 'string') {
    return parsePostId(embed.record.uri) ? embed.record.uri : null;
  }
  if (embed.$type === 'app.bsky.embed.recordWithMedia' && typeof embed.record?.record?.uri === 'string') {
    return parsePostId(embed.record.record.uri) ? embed.record.record.uri : null;
  }
  return null;
}

/** An AppView post view → the port's post, with Bluesky's four counts. */
export function toSocialPost(view: AppBskyFeedDefs.PostView): SocialPost {
  const record = view.record as PostRecordShape;
  const parent = typeof record.reply?.parent?.uri === 'string' ? record.reply.parent.uri : null;
  const root = typeof record.reply?.root?.uri === 'string' ? record.reply.root.uri : null;
  const quoted = quotedUri(record);
  const kind: PostKind = parent ? 'reply' : quoted ? 'quote' : 'original';
  const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : NaN;
  return {
    id: view.uri,
    authorId: view.author.did,
    text: typeof record.text === 'string' ? record.text : '',
    createdAt: new Date(Number.isNaN(created) ? Date.parse(view.indexedAt) : created),
    kind,
    referencedPostId: parent ?? quoted,
    conversationId: root ?? view.uri,
    metrics: {
      likes: view.likeCount ?? 0,
      replies: view.replyCount ?? 0,
      reposts: view.repostCount ?? 0,
      quotes: view.quoteCount ?? 0,
    },
  };
}

/**
 * The Bluesky adapter of the social-network port's reading half, on the public AppView (no credentials):
 * metrics from `app.bsky.feed.getPosts`, profiles from `getProfile`, who reposted or liked a post from
 * `getRepostedBy` / `getLikes` (public on Bluesky), replies from `getPostThread`.
 *
 * Discovery is NOT here: Bluesky's public AppView refuses unauthenticated post search and its maintainers ask
 * apps to synchronise through the protocol instead, so new posts, likes, reposts, quotes, replies and deletions
 * come from the repository event stream (bluesky-stream.ts). `findPosts` answers only the one query that is not
 * a search (`repliesTo`, a thread read) and refuses the search queries plainly rather than pretending.
 */
export class BlueskySocialNetwork implements SocialNetwork {
  readonly name = 'bluesky' as const;
  readonly metricsBatchSize = GET_POSTS_BATCH;
  /** No search is used on Bluesky: nothing is ever "in reach" of one. */
  readonly searchReachMs = 0;
  /**
   * The event stream counted what it saw; the AppView lags the relay (and has outages): getPosts may raise a count,
   * never lower one, and a post it does not return is not deleted before the grace period (ADR 013).
   */
  readonly streamAuthority: StreamAuthority | undefined;
  readonly recordsOf?: SocialNetwork['recordsOf'];
  private readonly appview: BlueskyAppView;

  constructor(
    private readonly options: {
      appviewUrl: string;
      postUrlBase: string;
      fetch?: typeof globalThis.fetch;
      streamAuthority?: StreamAuthority;
      /** Reads the records behind a count (the trace job); without it the network names none. */
      records?: BlueskyRecordReader;
    },
  ) {
    this.streamAuthority = options.streamAuthority;
    const records = options.records;
    if (records) {
      this.recordsOf = (post, kind, read) => records.recordsOf(post, kind, read);
    }
    this.appview = new BlueskyAppView(options.appviewUrl, options.fetch);
  }

  async findPosts(query: PostQuery, options: { cursor?: string }): Promise<PostPage> {
    if (query.type !== 'repliesTo') {
      throw new NotOnBlueskyError(
        `${query.type} search is not used on Bluesky: the repository event stream brings new posts (docs/networks.md)`,
      );
    }
    if (options.cursor) return { posts: [], authors: [], newestId: null, nextCursor: null };
    const data = await this.appview.getPostThread({
      uri: query.postId,
      depth: 1,
      parentHeight: 0,
    });
    const thread = data.thread as { replies?: unknown[] };
    const views = (thread.replies ?? []).flatMap((reply) => {
      const post = (reply as { $type?: string; post?: AppBskyFeedDefs.PostView }).post;
      return post ? [post] : [];
    });
    return {
      posts: views.map(toSocialPost),
      authors: views.map((v) => toSocialAuthor(v.author)),
      newestId: null,
      nextCursor: null,
    };
  }

  /**
   * Current counts of up to 25 posts. A post the AppView does not return is reported missing ('deleted'): it may be
   * deleted or taken down, or not indexed yet; the refresh tells which with the stream (streamAuthority).
   */
  async readMetrics(
    ids: readonly string[],
  ): Promise<{ posts: SocialPost[]; missing: MissingPost[]; authors: SocialAuthor[] }> {
    const valid = ids.filter((id) => parsePostId(id));
    const invalid: MissingPost[] = ids
      .filter((id) => !parsePostId(id))
      .map((id) => ({ id, reason: 'other', detail: 'not a Bluesky post URI' }));
    const posts: SocialPost[] = [];
    const authors = new Map<string, SocialAuthor>();
    for (let i = 0; i < valid.length; i += GET_POSTS_BATCH) {
      const data = await this.appview.getPosts({ uris: valid.slice(i, i + GET_POSTS_BATCH) });
      for (const view of data.posts) {
        posts.push(toSocialPost(view));
        authors.set(view.author.did, toSocialAuthor(view.author));
      }
    }
    const found = new Set(posts.map((p) => p.id));
    const missing: MissingPost[] = valid
      .filter((id) => !found.has(id))
      .map((id) => ({ id, reason: 'deleted', detail: 'the AppView no longer has this post' }));
    return { posts, missing: [...missing, ...invalid], authors: [...authors.values()] };
  }

  async repostsOf(postId: string, cursor?: string) {
    const data = await this.appview.getRepostedBy({
      uri: postId,
      limit: PAGE_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    return { authors: data.repostedBy.map(toSocialAuthor), nextCursor: data.cursor ?? null };
  }

  async likersOf(postId: string, cursor?: string) {
    const data = await this.appview.getLikes({
      uri: postId,
      limit: PAGE_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    return { authors: data.likes.map((like) => toSocialAuthor(like.actor)), nextCursor: data.cursor ?? null };
  }

  async quotesOf(postId: string, cursor?: string): Promise<PostPage> {
    const data = await this.appview.getQuotes({
      uri: postId,
      limit: PAGE_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    return {
      posts: data.posts.map(toSocialPost),
      authors: data.posts.map((v) => toSocialAuthor(v.author)),
      newestId: null,
      nextCursor: data.cursor ?? null,
    };
  }

  /**
   * On Bluesky likes are public records: `likersOf` reads who liked a post without any member token, so the
   * engine never needs a member's likes from the member. Kept for the port, it refuses plainly.
   */
  likedBy(): Promise<PostPage> {
    return Promise.reject(
      new NotOnBlueskyError("a member's likes are not read with their token on Bluesky: likersOf reads them"),
    );
  }

  async authorByHandle(handle: string): Promise<SocialAuthor | null> {
    try {
      const data = await this.appview.getProfile({ actor: handle.replace(/^@/, '') });
      return toSocialAuthor(data);
    } catch (error) {
      if ((error as { status?: number }).status === 400) return null; // "Profile not found" / bad handle
      throw error;
    }
  }

  /** Profiles of up to 25 DIDs a call; the ones the AppView does not know yet are left out. */
  async authorsByIds(ids: readonly string[]): Promise<SocialAuthor[]> {
    const authors: SocialAuthor[] = [];
    for (let i = 0; i < ids.length; i += 25) {
      const data = await this.appview.getProfiles({ actors: ids.slice(i, i + 25) });
      authors.push(...data.profiles.map(toSocialAuthor));
    }
    return authors;
  }

  postUrl(handle: string, postId: string): string {
    return postUrl(this.options.postUrlBase, handle, postId);
  }

  describeQuery(query: PostQuery): QueryPreview {
    return describeBlueskyQuery(query);
  }
}
