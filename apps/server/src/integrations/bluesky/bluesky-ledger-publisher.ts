import type { AtpAgent } from '@atproto/api';
import type { Sealed } from '../../config/sealed';
import {
  PublicationRefusedError,
  type LedgerPublication,
  type LedgerPublishing,
  type PublishedPost,
} from '../../social/ledger-publishing';
import { POST_COLLECTION, postUrl } from './bluesky-ids';
import { fullOfficialHandle, OFFICIAL_HANDLE_DOMAIN } from './bluesky-reading';
import { graphemeCount } from '../../lib/text-measure';

/** A call to the account's PDS that did not answer in time; its message says which call and how long. */
export class PublishTimeoutError extends Error {
  override readonly name = 'PublishTimeoutError';
}

/** The agent wraps what its fetch throws (XRPCError, cause kept): a time-out is rethrown as itself. */
function rethrowTimeout(error: unknown): void {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof PublishTimeoutError) throw e;
}

/** Bluesky's limit on a post's text, in graphemes. */
export const POST_GRAPHEMES = 300;
/** Pages of the account's own posts read to find an earlier attempt (100 each, newest first). */
const SCAN_PAGES = 5;
/**
 * How long one call to the account's PDS may take, answer read in full (sign-in, each page of its posts, the
 * post): past it the call is cut off and the attempt fails with a line saying which call did not answer, and the
 * close job retries later (ledger-publish.service's backoff), so a PDS that accepts and never answers cannot hold
 * the worker's ledger job.
 */
export const PUBLISH_CALL_TIMEOUT_MS = 20_000;

/**
 * Publishes a ledger's hash on Bluesky from the programme's app account (BLUESKY_APP_HANDLE / _PASSWORD, sealed:
 * revealed only to the sign-in call): signs in on the account's PDS (com.atproto.server.createSession), checks that
 * the account is the rules' first official account, looks through its recent posts for one that already carries
 * the hash (an attempt whose answer was lost), and otherwise writes an app.bsky.feed.post with a link facet on the
 * ledger's URL (com.atproto.repo.createRecord) in the account's own repository, signed by its key. Each call has
 * `timeoutMs` (PUBLISH_CALL_TIMEOUT_MS) to answer in full.
 */
export class BlueskyLedgerPublisher implements LedgerPublishing {
  constructor(
    private readonly options: {
      account: { handle: string; password: Sealed; service: string };
      /** The domain of a bare official name (bsky.social; the local test network's is `test`). */
      officialHandleDomain?: string;
      /** Where posts are seen on the web (BlueskyConfig.postUrlBase: https://bsky.app). */
      postUrlBase?: string;
      fetch?: typeof globalThis.fetch;
      /** Per call to the PDS (PUBLISH_CALL_TIMEOUT_MS by default). */
      timeoutMs?: number;
    },
  ) {}

  /** The fetch the agent uses: each call cut off after `timeoutMs`, with an error that names the call. */
  private timedFetch(): typeof globalThis.fetch {
    const base = this.options.fetch ?? globalThis.fetch;
    const ms = this.options.timeoutMs ?? PUBLISH_CALL_TIMEOUT_MS;
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const timer = AbortSignal.timeout(ms);
      const signal = init?.signal ? AbortSignal.any([init.signal, timer]) : timer;
      const timedOut = () =>
        new PublishTimeoutError(
          `the PDS ${url.origin} did not answer ${url.pathname.replace(/^\/xrpc\//, '')} within ${ms / 1000} s`,
        );
      try {
        const response = await base(input, { ...init, signal });
        // The body is read under the same deadline: a server that sends headers and then stalls is cut off too.
        const body = await response.arrayBuffer();
        return new Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (error) {
        if (timer.aborted) throw timedOut();
        throw error;
      }
    };
  }

  async publishLedger(publication: LedgerPublication): Promise<PublishedPost> {
    const length = graphemeCount(publication.text);
    if (length > POST_GRAPHEMES)
      throw new PublicationRefusedError(
        `the text is ${length} graphemes; a Bluesky post holds ${POST_GRAPHEMES} (a shorter PUBLIC_ORIGIN helps)`,
      );
    const { account } = this.options;
    // Loaded as it is first used: a server that never publishes never holds its lexicons (bluesky-appview.ts).
    const { AtpAgent } = await import('@atproto/api');
    const agent = new AtpAgent({ service: account.service, fetch: this.timedFetch() });
    try {
      await agent.login({ identifier: account.handle, password: account.password.reveal() });
    } catch (error) {
      rethrowTimeout(error);
      const status = (error as { status?: number }).status ?? 0;
      if (status === 401 || status === 400)
        throw new PublicationRefusedError(
          `the app account @${account.handle} could not sign in (HTTP ${status})`,
        );
      throw error;
    }
    const session = agent.session;
    if (!session) throw new Error('signed in without a session');
    const official = fullOfficialHandle(
      publication.officialHandle,
      this.options.officialHandleDomain ?? OFFICIAL_HANDLE_DOMAIN,
    );
    if (session.handle.toLowerCase() !== official)
      throw new PublicationRefusedError(
        `the app account is @${session.handle}, not the programme's first official account @${official}`,
      );
    try {
      return await this.publishAs(agent, session, publication);
    } catch (error) {
      rethrowTimeout(error);
      throw error;
    }
  }

  private async publishAs(
    agent: AtpAgent,
    session: { did: string; handle: string },
    publication: LedgerPublication,
  ): Promise<PublishedPost> {
    const url = (uri: string) => postUrl(this.options.postUrlBase ?? 'https://bsky.app', session.handle, uri);
    const earlier = await this.findEarlier(agent, session.did, publication.marker);
    if (earlier) return { ...earlier, url: url(earlier.uri) };
    const createdAt = new Date().toISOString();
    const start = publication.text.indexOf(publication.link);
    const facets =
      start < 0
        ? undefined
        : [
            {
              index: {
                byteStart: Buffer.byteLength(publication.text.slice(0, start)),
                byteEnd:
                  Buffer.byteLength(publication.text.slice(0, start)) + Buffer.byteLength(publication.link),
              },
              features: [{ $type: 'app.bsky.richtext.facet#link', uri: publication.link }],
            },
          ];
    const { data } = await agent.com.atproto.repo.createRecord({
      repo: session.did,
      collection: POST_COLLECTION,
      record: {
        $type: POST_COLLECTION,
        text: publication.text,
        ...(facets ? { facets } : {}),
        langs: ['en'],
        createdAt,
      },
    });
    return { uri: data.uri, cid: data.cid, at: new Date(createdAt), url: url(data.uri) };
  }

  /** The account's own recent post carrying the marker, if an earlier attempt made one. */
  private async findEarlier(
    agent: AtpAgent,
    did: string,
    marker: string,
  ): Promise<Omit<PublishedPost, 'url'> | null> {
    let cursor: string | undefined;
    for (let page = 0; page < SCAN_PAGES; page++) {
      const { data } = await agent.com.atproto.repo.listRecords({
        repo: did,
        collection: POST_COLLECTION,
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      for (const record of data.records) {
        const value = record.value as { text?: unknown; createdAt?: unknown };
        if (typeof value.text === 'string' && value.text.includes(marker))
          return {
            uri: record.uri,
            cid: record.cid,
            at: new Date(typeof value.createdAt === 'string' ? value.createdAt : Date.now()),
          };
      }
      if (!data.cursor || data.records.length === 0) return null;
      cursor = data.cursor;
    }
    return null;
  }
}
