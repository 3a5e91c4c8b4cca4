import { AtpAgent, type AppBskyFeedDefs, type AppBskyFeedSearchPosts } from '@atproto/api';
import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Clock } from '../../clock';
import type { Sealed } from '../../config/sealed';
import type { Database } from '../../db/schema';
import type { JobLog } from '../../jobs/job';
import { readState, recordRun, saveCursor } from '../../modules/mana/ingest-state.repository';
import { activeRules } from '../../modules/programme/programme.service';
import type { StreamEvent, StreamIngest } from '../../modules/mana/stream-ingest.service';
import { MalformedRecordError, toStreamEvent } from './bluesky-events';
import { parsePostId, POST_COLLECTION } from './bluesky-ids';

/** The ingest_state job that remembers a gap until it is filled (so a restart mid-fill fills it again). */
export const GAP_JOB = 'stream-gap';

export type GapWindow = { since: Date; until: Date };
export type GapFillResult = { calls: number; found: number; tracked: number };
type Query = Pick<AppBskyFeedSearchPosts.QueryParams, 'q' | 'mentions'>;

export type GapFillOptions = {
  db: Kysely<Database>;
  ingest: StreamIngest;
  log: JobLog;
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
export function gapQueries(rules: ProgrammeRules, officialHandle: (name: string) => string): Query[] {
  return [
    ...rules.hashtags.map((tag) => ({ q: `#${tag.replace(/^#/, '')}` })),
    ...rules.keywords.map((keyword) => ({ q: keyword })),
    ...rules.officialHandles.map((name) => {
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
    });
  } catch (error) {
    if (error instanceof MalformedRecordError) return null;
    throw error;
  }
}

/**
 * Fills a gap of the event stream (a stored cursor older than the relay replays) from Bluesky's authenticated post
 * search, `app.bsky.feed.searchPosts`, signed in as the operator's app account: every query of `gapQueries`,
 * newest first between `since` and `until`, page by page with the cursor. Calls that are rate limited (429) or fail
 * (5xx, network) are retried after the wait the AppView names (`ratelimit-reset`) or 1 s doubling. What it finds
 * goes through the stream's own ingest (`StreamIngest`, without a cursor), so a post the stream also brings (the
 * relay's replay overlaps the window) is tracked once; counts of found posts come from the refresh job's getPosts,
 * like every tracked post's. The window is remembered in ingest_state (`stream-gap`) until filled.
 */
export class BlueskyGapFill {
  constructor(private readonly options: GapFillOptions) {}

  /** A gap an earlier run did not finish, or null. */
  async pending(): Promise<GapWindow | null> {
    const cursor = (await readState(this.options.db, GAP_JOB))?.cursor as
      { since?: string; until?: string } | undefined;
    return cursor?.since && cursor.until
      ? { since: new Date(cursor.since), until: new Date(cursor.until) }
      : null;
  }

  /** Remembers the gap (joined with one not filled yet), fills it, and forgets it once filled. */
  async fill(window: GapWindow, signal?: AbortSignal): Promise<GapFillResult | null> {
    const { db, clock, log } = this.options;
    const earlier = await this.pending();
    const since = new Date(Math.min(window.since.getTime(), earlier?.since.getTime() ?? Infinity));
    const until = new Date(Math.max(window.until.getTime(), earlier?.until.getTime() ?? 0));
    const startedAt = new Date(clock.now());
    await saveCursor(db, GAP_JOB, { since: since.toISOString(), until: until.toISOString() }, startedAt);
    const report = { startedAt, calls: 0, nextRunAt: null, rateLimitResetAt: null };
    try {
      const result = await this.search(since, until, signal);
      if (!result) return null; // stopped: the window stays for the next start
      await saveCursor(db, GAP_JOB, { filledThrough: until.toISOString() }, new Date(clock.now()));
      await recordRun(db, GAP_JOB, {
        ...report,
        calls: result.calls,
        finishedAt: new Date(clock.now()),
        error: null,
      });
      log.info({ since, until, ...result }, 'bluesky stream: gap filled from authenticated search');
      return result;
    } catch (error) {
      const message = `gap fill failed (${since.toISOString()} to ${until.toISOString()}), retried at the next start: ${error instanceof Error ? error.message : String(error)}`;
      log.error({ err: error, since, until }, `bluesky stream: ${message}`);
      await recordRun(db, GAP_JOB, { ...report, finishedAt: new Date(clock.now()), error: message }).catch(
        () => undefined,
      );
      return null;
    }
  }

  private async search(since: Date, until: Date, signal?: AbortSignal): Promise<GapFillResult | null> {
    const { account, ingest, db, clock } = this.options;
    const agent = new AtpAgent({
      service: account.service,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
    const result: GapFillResult = { calls: 0, found: 0, tracked: 0 };
    await this.retried(() =>
      agent.login({ identifier: account.handle, password: account.password.reveal() }),
    );
    result.calls++;
    const { version, rules } = await activeRules(db);
    const officials = await ingest.officialIds(rules, version);
    for (const query of gapQueries(rules, this.options.officialHandle)) {
      let cursor: string | undefined;
      for (let page = 0; page < (this.options.maxPages ?? 50); page++) {
        if (signal?.aborted) return null;
        const { data } = await this.retried(() =>
          agent.app.bsky.feed.searchPosts({
            ...query,
            since: since.toISOString(),
            until: until.toISOString(),
            sort: 'latest',
            limit: this.options.pageLimit ?? 100,
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
        if (events.length > 0)
          result.tracked += (
            await ingest.ingest(rules, officials, events, null, new Date(clock.now()))
          ).tracked;
        const oldest = Math.min(...data.posts.map((v) => Date.parse(v.indexedAt)));
        if (!data.cursor || data.posts.length === 0 || oldest < since.getTime()) break;
        cursor = data.cursor;
      }
    }
    return result;
  }

  /** A call retried while it is rate limited (429) or the service fails (5xx, network). */
  private async retried<T>(call: () => Promise<T>): Promise<T> {
    const { clock, log } = this.options;
    const maxBackoff = this.options.maxBackoffMs ?? 60_000;
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const status = (error as { status?: number }).status ?? 0;
        const retryable = status === 429 || status >= 500 || status === 1; // 1: the request did not complete
        if (!retryable || attempt >= (this.options.maxRetries ?? 6)) throw error;
        const reset = Number((error as { headers?: Record<string, string> }).headers?.['ratelimit-reset']);
        const named = Number.isFinite(reset) && reset > 0 ? reset * 1000 - clock.now() : NaN;
        const wait = Math.min(
          15 * 60_000,
          Math.max(0, Number.isNaN(named) ? Math.min(maxBackoff, 1000 * 2 ** attempt) : named),
        );
        log.warn(
          { status, retryInMs: wait },
          'bluesky gap fill: search rate limited or unavailable; waiting',
        );
        await clock.sleep(wait);
      }
    }
  }
}
