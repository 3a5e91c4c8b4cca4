import type { AppBskyFeedDefs } from '@atcute/bluesky';
import { IdResolver } from '@atproto/identity';
import { BoundedMap } from '../../lib/bounded-map';
import type { CallBudget, PostRecord, RecordKind, RecordsFound } from '../../social/social-network';
import { BlueskyAppView } from './bluesky-appview';
import { claimedTime } from './bluesky-claimed-time';
import { LIKE_COLLECTION, REPOST_COLLECTION } from './bluesky-events';
import { CALL_TIMEOUT_MS, guardedFetch, ownListedRecord, timedFetch } from './guarded-fetch';

/** Items per page of every list read here (the most the AppView and a PDS give). */
const PAGE_LIMIT = 100;
/**
 * How many accounts' PDSes a reader remembers (the oldest read is dropped first): each account whose record was
 * looked up adds one, some 300 bytes, and a process runs for months (issue 31: per-account memory is bounded).
 */
export const PDS_CACHE_SIZE = 10_000;

export type RecordReaderOptions = {
  appviewUrl: string;
  plcUrl: string;
  /** Local networks only: resolve DIDs and reach servers over http. */
  allowHttp: boolean;
  fetch?: typeof globalThis.fetch;
  /** Accounts looked up at once in their repositories (default 4). */
  concurrency?: number;
  /** Pages of one account's likes or reposts read at most, newest first (default 5: 500 records). */
  maxPagesPerAccount?: number;
};

type Options = {
  knownAuthors: ReadonlySet<string>;
  knownIds: ReadonlySet<string>;
  want: number;
  budget: CallBudget;
};

/** Why a read stopped early: the run's calls are spent, or the network said to slow down (429). */
class Stop extends Error {
  constructor(readonly why: 'budget' | 'rate-limited') {
    super(why);
  }
}

/**
 * Reads the records behind a post's counts from Bluesky's public lists (issue 30): quotes (`getQuotes`) and
 * replies (the thread, `getPostThread`) are posts, each with its AT URI and CID; `getLikes` and `getRepostedBy`
 * name only the accounts, so each account's own record is found in its repository on its PDS
 * (`com.atproto.repo.listRecords`, newest first, until the records are older than the post). Every call takes one
 * from the run's budget; a 429 ends the read (the next run goes on), as does any other failure (but a PDS that
 * fails or is refused only leaves that account's record not found).
 */
export class BlueskyRecordReader {
  private readonly appview: BlueskyAppView;
  private readonly resolver: IdResolver;
  /** The accounts' PDSes read so far, the newest PDS_CACHE_SIZE (one per account whose record was looked up). */
  private readonly pds = new BoundedMap<string, Promise<string | null>>(PDS_CACHE_SIZE);
  /** For the PDSes DID documents name: anyone can point theirs at any address (SSRF). */
  private readonly pdsFetch: typeof globalThis.fetch;

  constructor(private readonly options: RecordReaderOptions) {
    this.appview = new BlueskyAppView(options.appviewUrl, timedFetch(CALL_TIMEOUT_MS, options.fetch));
    this.pdsFetch = guardedFetch({
      allowHttp: options.allowHttp,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.resolver = new IdResolver({
      plcUrl: options.plcUrl,
      // The resolvers' default fetch refuses http: (SSRF protection); local networks only pass their own.
      ...(options.allowHttp ? { fetch: options.fetch ?? globalThis.fetch } : {}),
    });
  }

  async recordsOf(
    post: { id: string; createdAt: Date },
    kind: RecordKind,
    options: Options,
  ): Promise<RecordsFound> {
    const found: RecordsFound = { records: [], complete: false, calls: 0 };
    const spend = () => {
      if (options.budget.left <= 0) throw new Stop('budget');
      options.budget.left--;
      found.calls++;
    };
    try {
      if (kind === 'quote' || kind === 'reply') {
        const views =
          kind === 'quote' ? await this.quotes(post.id, spend) : await this.replies(post.id, spend);
        // Each reply or quote is a record of its own, however many one account wrote: known by id only.
        found.records = views
          .map(toRecord)
          .filter((r) => !options.knownIds.has(r.id))
          .slice(0, options.want);
        found.complete = true;
        return found;
      }
      const accounts = (await this.accounts(post.id, kind, spend)).filter(
        (a) => !options.knownAuthors.has(a),
      );
      const collection = kind === 'like' ? LIKE_COLLECTION : REPOST_COLLECTION;
      let missing = false;
      await eachAtMost(accounts, this.options.concurrency ?? 4, async (did) => {
        if (found.records.length >= options.want) return;
        const record = await this.ownRecord(did, collection, post, spend);
        if (record && !options.knownIds.has(record.id)) found.records.push(record);
        else if (!record) missing = true;
      });
      found.records = found.records.slice(0, options.want);
      found.complete = !missing || found.records.length >= options.want;
      return found;
    } catch (error) {
      found.complete = false;
      found.stopped =
        error instanceof Stop ? error.why : status(error) === 429 ? 'rate-limited' : ('error' as const);
      return found;
    }
  }

  private async quotes(uri: string, spend: () => void): Promise<AppBskyFeedDefs.PostView[]> {
    const views: AppBskyFeedDefs.PostView[] = [];
    let cursor: string | undefined;
    do {
      spend();
      const data = await this.appview.getQuotes({
        uri,
        limit: PAGE_LIMIT,
        ...(cursor ? { cursor } : {}),
      });
      views.push(...data.posts);
      cursor = data.posts.length > 0 ? data.cursor : undefined;
    } while (cursor);
    return views;
  }

  private async replies(uri: string, spend: () => void): Promise<AppBskyFeedDefs.PostView[]> {
    spend();
    const data = await this.appview.getPostThread({ uri, depth: 1, parentHeight: 0 });
    const replies = (data.thread as { replies?: unknown[] }).replies ?? [];
    return replies.flatMap((reply) => {
      const view = (reply as { post?: AppBskyFeedDefs.PostView }).post;
      // Only the post's own replies count on it (a reply's parent is this post).
      const parent = (view?.record as { reply?: { parent?: { uri?: unknown } } } | undefined)?.reply?.parent
        ?.uri;
      return view && parent === uri ? [view] : [];
    });
  }

  /** The accounts that liked or reposted the post, as the AppView lists them (newest first). */
  private async accounts(uri: string, kind: 'like' | 'repost', spend: () => void): Promise<string[]> {
    const dids: string[] = [];
    let cursor: string | undefined;
    do {
      spend();
      const page = { uri, limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) };
      if (kind === 'like') {
        const data = await this.appview.getLikes(page);
        dids.push(...data.likes.map((l) => l.actor.did));
        cursor = data.likes.length > 0 ? data.cursor : undefined;
      } else {
        const data = await this.appview.getRepostedBy(page);
        dids.push(...data.repostedBy.map((a) => a.did));
        cursor = data.repostedBy.length > 0 ? data.cursor : undefined;
      }
    } while (cursor);
    return [...new Set(dids)];
  }

  /**
   * The account's like or repost of the post, from its own repository: its records newest first, page by page,
   * until one names the post, the records are older than the post (none older can name it), or the page cap.
   */
  private async ownRecord(
    did: string,
    collection: string,
    post: { id: string; createdAt: Date },
    spend: () => void,
  ): Promise<PostRecord | null> {
    const pds = await this.pdsOf(did);
    if (!pds) return null;
    let cursor: string | undefined;
    for (let page = 0; page < (this.options.maxPagesPerAccount ?? 5); page++) {
      spend();
      const url = new URL('/xrpc/com.atproto.repo.listRecords', pds);
      url.searchParams.set('repo', did);
      url.searchParams.set('collection', collection);
      url.searchParams.set('limit', String(PAGE_LIMIT));
      if (cursor) url.searchParams.set('cursor', cursor);
      const body = await this.listPage(url);
      if (!body) return null;
      const records = Array.isArray(body.records) ? (body.records as ListedRecord[]) : [];
      for (const r of records) {
        const at = Date.parse(typeof r.value?.createdAt === 'string' ? r.value.createdAt : '');
        // Only this account's own record of the post (a hostile PDS could name another record: dropped).
        const own = ownListedRecord(r, did, collection, post.id);
        if (own) {
          return {
            id: own.uri,
            cid: own.cid,
            authorId: did,
            createdAt: claimedTime(Number.isNaN(at) ? post.createdAt.getTime() : at, new Date()),
          };
        }
        if (!Number.isNaN(at) && at < post.createdAt.getTime()) return null;
      }
      if (typeof body.cursor !== 'string' || records.length === 0) return null;
      cursor = body.cursor;
    }
    return null;
  }

  /**
   * One page of `listRecords` through the guarded fetch; null when the PDS fails, is refused (a private or http
   * address) or answers too much: that account's record is then not found (its point stays untraced), the other
   * accounts are still read. A 429 ends the read.
   */
  private async listPage(url: URL): Promise<{ records?: unknown; cursor?: unknown } | null> {
    try {
      const response = await this.pdsFetch(url);
      if (response.status === 429) throw new Stop('rate-limited');
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      return (await response.json()) as { records?: unknown; cursor?: unknown };
    } catch (error) {
      if (error instanceof Stop) throw error;
      return null;
    }
  }

  /** An account's PDS from its DID document (once per reader). */
  private pdsOf(did: string): Promise<string | null> {
    let known = this.pds.get(did);
    if (!known) {
      known = this.resolver.did
        .resolveAtprotoData(did)
        .then((data) => data.pds)
        .catch(() => null);
      this.pds.set(did, known);
    }
    return known;
  }
}

type ListedRecord = {
  uri?: unknown;
  cid?: unknown;
  value?: { subject?: { uri?: unknown }; createdAt?: unknown };
};

function toRecord(view: AppBskyFeedDefs.PostView): PostRecord {
  const claimed = Date.parse(String((view.record as { createdAt?: unknown }).createdAt ?? ''));
  return {
    id: view.uri,
    cid: view.cid,
    authorId: view.author.did,
    createdAt: claimedTime(Number.isNaN(claimed) ? Date.parse(view.indexedAt) : claimed, new Date()),
  };
}

function status(error: unknown): number {
  return (error as { status?: number }).status ?? 0;
}

/** Runs `task` for each item, at most `limit` at a time; the first failure rejects (the rest finish first). */
async function eachAtMost<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length && errors.length === 0) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}
