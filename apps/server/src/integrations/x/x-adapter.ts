import type {
  MissingPost,
  PostKind,
  PostPage,
  PostQuery,
  SocialAuthor,
  SocialNetwork,
  SocialPost,
  QueryPreview,
} from '../../social/social-network';
import type { XApi } from './x-api';
import type { XProblem, XTweet, XTweetList, XUser } from './x-schemas';

/** X's Tweet → the port's post. Plain reposts are kept as kind 'repost' so callers can skip them. */
export function toSocialPost(tweet: XTweet): SocialPost {
  const ref = tweet.referenced_tweets?.[0];
  const kind: PostKind =
    ref?.type === 'retweeted'
      ? 'repost'
      : ref?.type === 'quoted'
        ? 'quote'
        : ref?.type === 'replied_to'
          ? 'reply'
          : 'original';
  const m = tweet.public_metrics;
  return {
    id: tweet.id,
    authorId: tweet.author_id ?? '',
    text: tweet.text,
    createdAt: new Date(tweet.created_at ?? 0),
    kind,
    referencedPostId: ref?.id ?? null,
    conversationId: tweet.conversation_id ?? null,
    metrics: {
      likes: m?.like_count ?? 0,
      replies: m?.reply_count ?? 0,
      reposts: m?.retweet_count ?? 0,
      quotes: m?.quote_count ?? 0,
    },
  };
}

/** X's User → the port's author. */
export function toSocialAuthor(user: XUser): SocialAuthor {
  return {
    networkUserId: user.id,
    handle: user.username,
    displayName: user.name,
    avatarUrl: user.profile_image_url ?? null,
    createdAt: user.created_at ? new Date(user.created_at) : null,
    followers: user.public_metrics?.followers_count ?? null,
    protected: user.protected ?? false,
  };
}

/** X's partial error → why a post is missing. */
export function toMissingPost(problem: XProblem): MissingPost {
  const id = problem.resource_id ?? problem.value ?? '';
  const reason = problem.type.endsWith('/resource-not-found')
    ? 'deleted'
    : problem.type.endsWith('/not-authorized-for-resource')
      ? 'protected'
      : 'other';
  return { id, reason, detail: problem.detail ?? problem.title };
}

/** A keyword as X search takes it: a bare word, or a quoted phrase (quotes inside are dropped). */
const quoteTerm = (term: string) => (/^[A-Za-z0-9_]+$/.test(term) ? term : `"${term.replaceAll('"', '')}"`);

/** X caps a recent-search query at 512 characters on self-serve access (1,024 on Pro and Enterprise). */
export const X_QUERY_MAX_LENGTH = 512;

/** X recent search reaches 7 days back. */
export const X_SEARCH_REACH_MS = 7 * 86_400_000;

/**
 * The port's structured query → X search syntax, e.g. `(manaboard OR #ManaBoard OR @ManaboardHQ) -is:retweet`,
 * `(from:ManaboardHQ) -is:retweet -is:reply`, `conversation_id:123 is:reply`.
 */
export function toXQuery(query: PostQuery): string {
  switch (query.type) {
    case 'matching': {
      const terms = [
        ...query.keywords.map(quoteTerm),
        ...query.hashtags.map((tag) => `#${tag.replace(/^#/, '')}`),
        ...query.mentions.map((handle) => `@${handle.replace(/^@/, '')}`),
      ];
      return `(${terms.join(' OR ')}) -is:retweet`;
    }
    case 'postsOf':
      return `(${query.handles.map((handle) => `from:${handle.replace(/^@/, '')}`).join(' OR ')}) -is:retweet -is:reply`;
    case 'repliesTo':
      return `conversation_id:${query.postId} is:reply`;
  }
}

function toPage(list: XTweetList): PostPage {
  return {
    posts: (list.data ?? []).map(toSocialPost),
    authors: (list.includes?.users ?? []).map(toSocialAuthor),
    newestId: list.meta?.newest_id ?? null,
    nextCursor: list.meta?.next_token ?? null,
  };
}

/** The X adapter of the social-network port. Nothing outside integrations/x sees X's shapes. */
export class XSocialNetwork implements SocialNetwork {
  readonly name = 'x' as const;
  readonly metricsBatchSize = 100;
  readonly searchReachMs = X_SEARCH_REACH_MS;

  /** `postUrlBase`: x.com, or the simulation's origin and prefix (its page per post). */
  constructor(
    private readonly api: XApi,
    private readonly postUrlBase = 'https://x.com',
  ) {}

  describeQuery(query: PostQuery): QueryPreview {
    return { text: toXQuery(query), maxLength: X_QUERY_MAX_LENGTH };
  }

  async findPosts(
    query: PostQuery,
    options: { sinceId?: string; cursor?: string; startTime?: Date },
  ): Promise<PostPage> {
    return toPage(
      await this.api.searchRecent({
        query: toXQuery(query),
        maxResults: 100,
        ...(options.sinceId ? { sinceId: options.sinceId } : {}),
        ...(options.cursor ? { paginationToken: options.cursor } : {}),
        ...(options.startTime ? { startTime: options.startTime.toISOString() } : {}),
      }),
    );
  }

  async readMetrics(
    ids: readonly string[],
  ): Promise<{ posts: SocialPost[]; missing: MissingPost[]; authors: SocialAuthor[] }> {
    const list = await this.api.lookupTweets(ids);
    return {
      posts: (list.data ?? []).map(toSocialPost),
      missing: (list.errors ?? []).map(toMissingPost),
      authors: (list.includes?.users ?? []).map(toSocialAuthor),
    };
  }

  async repostsOf(postId: string, cursor?: string) {
    const list = await this.api.retweetedBy(postId, cursor);
    return { authors: (list.data ?? []).map(toSocialAuthor), nextCursor: list.meta?.next_token ?? null };
  }

  async quotesOf(postId: string, cursor?: string): Promise<PostPage> {
    return toPage(await this.api.quoteTweets(postId, cursor));
  }

  async likedBy(memberNetworkUserId: string, memberToken: string, cursor?: string): Promise<PostPage> {
    return toPage(await this.api.likedTweets(memberNetworkUserId, memberToken, cursor));
  }

  async authorByHandle(handle: string): Promise<SocialAuthor | null> {
    const answer = await this.api.userByUsername(handle.replace(/^@/, ''));
    return answer.data ? toSocialAuthor(answer.data) : null;
  }

  postUrl(handle: string, postId: string): string {
    return `${this.postUrlBase}/${encodeURIComponent(handle)}/status/${encodeURIComponent(postId)}`;
  }
}
