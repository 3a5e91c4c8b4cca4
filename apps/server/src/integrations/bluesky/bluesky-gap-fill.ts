import type { AppBskyFeedDefs, AppBskyFeedSearchPosts } from '@atproto/api';
import type { Clock } from '../../lib/clock';
import type { Sealed } from '../../config/sealed';
import type { GapWindow, ProgrammeTerms, StreamEvent, StreamLog } from '../../social/stream-source';
import { MalformedRecordError, toStreamEvent } from './bluesky-events';
import { parsePostId, POST_COLLECTION } from './bluesky-ids';

export type GapFillResult = { calls: number; found: number; tracked: number };
type Query = Pick<AppBskyFeedSearchPosts.QueryParams, 'q' | 'mentions'>;

export type GapFillOptions = {
  log: StreamLog;
  clock: Clock;
  /** The app account: its handle, its app password (sealed), where it signs in. */
  account: { handle: string; password: Sealed; service: string };
  /** The full handle of an official account named in the rules. */
  officialHandle: (name: string) => string;
  fetch?: typeof globalThis.fetch;
  /** Posts per search page (default 100, the most the AppView gives). */
  pageLimit?: number;
  /** Pages per query at most (default 50): a bound on one gap's cost. */
  maxPages?: number;
  /** Retries of a rate-limited or failing call (default 6), waiting as the AppView asks or 1 s doubling. */
  maxRetries?: number;
  maxBackoffMs?: number;
};

/** The searches that find the posts naming the programme: each hashtag, each keyword, each official mention. */
export function gapQueries(terms: ProgrammeTerms, officialHandle: (name: string) => string): Query[] {
  return [
    ...terms.hashtags.map((tag) => ({ q: `#${tag.replace(/^#/, '')}` })),
    ...terms.keywords.map((keyword) => ({ q: keyword })),
    ...terms.officialHandles.map((name) => {
      const handle = officialHandle(name);
      return { q: handle, mentions: handle };
    }),
  ];
}

/** A search result → the stream event its record would have been (its time: when the AppView indexed it). */
function toEvent(view: AppBskyFeedDefs.PostView): StreamEvent | null {
  const ref = parsePostId(view.uri);
  if (!ref) return null;
  try {
    return toStreamEvent({
      event: 'create',
      did: ref.did,
      collection: POST_COLLECTION,
      rkey: ref.rkey,
      record: view.record,
      time: view.indexedAt,
      cid: view.cid,
    });
  } catch (error) {
    if (error instanceof MalformedRecordError) return null;
    throw error;
  }
}

/**
 * Fills a gap of the event stream (the engine's stream-gap.ts decides when, and remembers the window) from
 * Bluesky's authenticated post search, `app.bsky.feed.searchPosts`, signed in as the operator's app account: every
 * query of `gapQueries`, newest first between `since` and `until`, page by page with the cursor. Calls that are rate
 * limited (429) or fail (5xx, network) are retried after the wait the AppView names (`ratelimit-reset`) or 1 s
 * doubling. What it finds goes to `store` (the stream's own rules), so a post the stream also brings (the relay's
 * replay overlaps the window) is tracked once; counts of found posts come from the refresh job's getPosts.
 */
export function blueskyGapSearch(options: GapFillOptions) {
  return async (
    { since, until }: GapWindow,
    terms: ProgrammeTerms,
    store: (events: readonly StreamEvent[]) => Promise<number>,
    signal: AbortSignal,
  ): Promise<GapFillResult | null> => {
    const { account } = options;
    // Loaded as it is first used: a server with no gap to fill never holds its lexicons (bluesky-appview.ts).
    const { AtpAgent } = await import('@atproto/api');
    const agent = new AtpAgent({
      service: account.service,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const result: GapFillResult = { calls: 0, found: 0, tracked: 0 };
    await retried(options, () =>
      agent.login({ identifier: account.handle, password: account.password.reveal() }),
    );
    result.calls++;
    for (const query of gapQueries(terms, options.officialHandle)) {
      let cursor: string | undefined;
      for (let page = 0; page < (options.maxPages ?? 50); page++) {
        if (signal.aborted) return null;
        const { data } = await retried(options, () =>
          agent.app.bsky.feed.searchPosts({
            ...query,
            since: since.toISOString(),
            until: until.toISOString(),
            sort: 'latest',
            limit: options.pageLimit ?? 100,
            ...(cursor ? { cursor } : {}),
          }),
        );
        result.calls++;
        // The window is checked here too: an AppView may ignore since/until (the local test network's does).
        const inWindow = data.posts.filter((v) => {
          const at = Date.parse(v.indexedAt);
          return at >= since.getTime() && at <= until.getTime();
        });
        const events = inWindow.flatMap((v) => toEvent(v) ?? []);
        result.found += inWindow.length;
        if (events.length > 0) result.tracked += await store(events);
        const oldest = Math.min(...data.posts.map((v) => Date.parse(v.indexedAt)));
        if (!data.cursor || data.posts.length === 0 || oldest < since.getTime()) break;
        cursor = data.cursor;
      }
    }
    return result;
  };
}

/** A call retried while it is rate limited (429) or the service fails (5xx, network). */
async function retried<T>(options: GapFillOptions, call: () => Promise<T>): Promise<T> {
  const { clock, log } = options;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const status = (error as { status?: number }).status ?? 0;
      const retryable = status === 429 || status >= 500 || status === 1; // 1: the request did not complete
      if (!retryable || attempt >= (options.maxRetries ?? 6)) throw error;
      const reset = Number((error as { headers?: Record<string, string> }).headers?.['ratelimit-reset']);
      const named = Number.isFinite(reset) && reset > 0 ? reset * 1000 - clock.now() : NaN;
      const wait = Math.min(
        15 * 60_000,
        Math.max(0, Number.isNaN(named) ? Math.min(maxBackoff, 1000 * 2 ** attempt) : named),
      );
      log.warn({ status, retryInMs: wait }, 'bluesky gap fill: search rate limited or unavailable; waiting');
      await clock.sleep(wait);
    }
  }
}
