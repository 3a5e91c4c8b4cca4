import type { XHttp } from './x-http';
import {
  xSingleUserSchema,
  xTweetListSchema,
  xUserListSchema,
  type XTweetList,
  type XUserList,
} from './x-schemas';

/** Fields the programme asks X for on every tweet and user. */
export const TWEET_FIELDS = 'created_at,author_id,conversation_id,public_metrics,referenced_tweets,entities';
export const USER_FIELDS = 'created_at,profile_image_url,public_metrics,protected,name,username';

export type SearchParams = {
  query: string;
  sinceId?: string;
  startTime?: string;
  maxResults?: number;
  paginationToken?: string;
};

/** Follows X's `meta.next_token` from the first page to the last, one call per page. */
async function* pages<P extends { meta?: { next_token?: string | undefined } | undefined }>(
  fetchPage: (paginationToken: string | undefined) => Promise<P>,
): AsyncGenerator<P> {
  let paginationToken: string | undefined;
  do {
    const page = await fetchPage(paginationToken);
    yield page;
    paginationToken = page.meta?.next_token;
  } while (paginationToken);
}

const countData = (body: { data?: unknown[] | undefined }) => body.data?.length ?? 0;

/**
 * The X API v2 endpoints the worker and linking use, each one call. App-level reads use the app's bearer
 * token; liked_tweets and users/me use the member's own token. Partial `errors` are returned, not dropped.
 */
export class XApi {
  constructor(
    private readonly http: XHttp,
    private readonly appToken: string,
  ) {}

  /** `GET /2/tweets/search/recent` — one page. */
  searchRecent(params: SearchParams): Promise<XTweetList> {
    return this.http.get(
      'search/recent',
      '/2/tweets/search/recent',
      {
        query: params.query,
        since_id: params.sinceId,
        start_time: params.startTime,
        max_results: String(params.maxResults ?? 100),
        pagination_token: params.paginationToken,
        'tweet.fields': TWEET_FIELDS,
        expansions: 'author_id',
        'user.fields': USER_FIELDS,
      },
      this.appToken,
      xTweetListSchema,
      countData,
    );
  }

  /** Every page of a search, in order (newest first, as X pages). */
  searchRecentPages(params: Omit<SearchParams, 'paginationToken'>): AsyncGenerator<XTweetList> {
    return pages((paginationToken) =>
      this.searchRecent({ ...params, ...(paginationToken ? { paginationToken } : {}) }),
    );
  }

  /** Every page of the users who reposted a tweet. */
  retweetedByPages(tweetId: string): AsyncGenerator<XUserList> {
    return pages((token) => this.retweetedBy(tweetId, token));
  }

  /** Every page of the quotes of a tweet. */
  quoteTweetsPages(tweetId: string): AsyncGenerator<XTweetList> {
    return pages((token) => this.quoteTweets(tweetId, token));
  }

  /** Every page of a member's likes, read with the member's own token. */
  likedTweetsPages(userId: string, userToken: string): AsyncGenerator<XTweetList> {
    return pages((token) => this.likedTweets(userId, userToken, token));
  }

  /** `GET /2/tweets?ids=` — at most 100 ids; deleted and protected tweets come back as partial errors. */
  lookupTweets(ids: readonly string[]): Promise<XTweetList> {
    if (ids.length === 0 || ids.length > 100) throw new RangeError('lookupTweets takes 1 to 100 ids');
    return this.http.get(
      'tweets',
      '/2/tweets',
      {
        ids: ids.join(','),
        'tweet.fields': TWEET_FIELDS,
        expansions: 'author_id',
        'user.fields': USER_FIELDS,
      },
      this.appToken,
      xTweetListSchema,
      countData,
    );
  }

  /** `GET /2/tweets/:id/retweeted_by` — one page of users who reposted. */
  retweetedBy(tweetId: string, paginationToken?: string): Promise<XUserList> {
    return this.http.get(
      'retweeted_by',
      `/2/tweets/${encodeURIComponent(tweetId)}/retweeted_by`,
      { max_results: '100', pagination_token: paginationToken, 'user.fields': USER_FIELDS },
      this.appToken,
      xUserListSchema,
      countData,
    );
  }

  /** `GET /2/tweets/:id/quote_tweets` — one page of quotes. */
  quoteTweets(tweetId: string, paginationToken?: string): Promise<XTweetList> {
    return this.http.get(
      'quote_tweets',
      `/2/tweets/${encodeURIComponent(tweetId)}/quote_tweets`,
      {
        max_results: '100',
        pagination_token: paginationToken,
        'tweet.fields': TWEET_FIELDS,
        expansions: 'author_id',
        'user.fields': USER_FIELDS,
      },
      this.appToken,
      xTweetListSchema,
      countData,
    );
  }

  /** `GET /2/users/:id/liked_tweets` with the member's own token (scope like.read): likes are private. */
  likedTweets(userId: string, userToken: string, paginationToken?: string): Promise<XTweetList> {
    return this.http.get(
      'liked_tweets',
      `/2/users/${encodeURIComponent(userId)}/liked_tweets`,
      { max_results: '100', pagination_token: paginationToken, 'tweet.fields': TWEET_FIELDS },
      userToken,
      xTweetListSchema,
      countData,
    );
  }

  /** `GET /2/users/by/username/:username`. */
  userByUsername(username: string) {
    return this.http.get(
      'users/by/username',
      `/2/users/by/username/${encodeURIComponent(username)}`,
      { 'user.fields': USER_FIELDS },
      this.appToken,
      xSingleUserSchema,
      (body) => (body.data ? 1 : 0),
    );
  }

  /** `GET /2/users/me` with the member's token, right after linking. */
  me(userToken: string) {
    return this.http.get(
      'users/me',
      '/2/users/me',
      { 'user.fields': USER_FIELDS },
      userToken,
      xSingleUserSchema,
      (body) => (body.data ? 1 : 0),
    );
  }
}
