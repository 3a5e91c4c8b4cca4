import { HandleResolver, IdResolver, parseToAtprotoDocument } from '@atproto/identity';
import type { Clock } from '../../lib/clock';
import type { BlueskyConfig } from '../../config/config';
import { DEFAULT_STREAM_AUTHORITY } from '../../config/stream-authority-config';
import type { SkipReason, StreamLog } from '../../social/stream-source';
import { BlueskyFirehose, type FirehoseOptions } from './bluesky-firehose';
import { createFrameReader } from './bluesky-frames';
import { blueskyGapSearch, type GapFillOptions } from './bluesky-gap-fill';
import { BlueskySocialNetwork } from './bluesky-network';
import { BlueskyRecordReader } from './bluesky-records';
import { BlueskyCommitVerifier } from './bluesky-verify';

/** Bluesky's own handle domain: a bare official name `ManaboardHQ` is the account `manaboardhq.bsky.social`. */
export const OFFICIAL_HANDLE_DOMAIN = 'bsky.social';

export type StreamTuning = Partial<
  Pick<FirehoseOptions, 'batchSize' | 'flushMs' | 'relayUrl' | 'idleTimeoutMs' | 'heartbeatMs'>
>;

/**
 * Everything the worker needs to read Bluesky, behind the port: the reading half on the AppView, the stream source
 * (the relay's subscribeRepos, with the gap fill when an app account is configured), and how official names and
 * changed handles are resolved. The composition root (bluesky-streaming.ts) wires them to the engine.
 */
export function createBlueskyReading(options: {
  config: BlueskyConfig;
  log: StreamLog;
  clock: Clock;
  stream?: StreamTuning;
  /** The gap fill's tuning (tests): its fetch, page size, longest wait. */
  gapFill?: Partial<Pick<GapFillOptions, 'fetch' | 'pageLimit' | 'maxBackoffMs'>>;
  /** The domain of a bare official handle (default bsky.social; the local test network's is `test`). */
  officialHandleDomain?: string;
  /** Counts input the stream skipped (the operator's metric). */
  onSkip?: (reason: SkipReason) => void;
  /** Counts the frames a start read again to refill the waiting room (the operator's metric). */
  onRefill?: (frames: number) => void;
}) {
  const { config, log, clock } = options;
  const network = new BlueskySocialNetwork({
    appviewUrl: config.appviewUrl,
    postUrlBase: config.postUrlBase,
    streamAuthority: config.streamAuthority ?? DEFAULT_STREAM_AUTHORITY,
    records: new BlueskyRecordReader({
      appviewUrl: config.appviewUrl,
      plcUrl: config.plcUrl,
      allowHttp: config.allowHttp,
    }),
  });
  const domain = options.officialHandleDomain ?? OFFICIAL_HANDLE_DOMAIN;
  const officialHandle = (handle: string) => fullOfficialHandle(handle, domain);
  const gapFill = config.appAccount
    ? blueskyGapSearch({ log, clock, account: config.appAccount, officialHandle, ...options.gapFill })
    : undefined;
  const verifier = config.verifyCommits
    ? new BlueskyCommitVerifier({ plcUrl: config.plcUrl, allowHttp: config.allowHttp })
    : undefined;
  const source = new BlueskyFirehose({
    relayUrl: config.relayUrl,
    log,
    reader: createFrameReader(verifier ? { verifier } : {}),
    ...(config.streamThread ? { thread: config.streamThread } : {}),
    gapFill,
    gapNote: gapFill
      ? 'posts written in between are searched for with the app account'
      : 'no app account (BLUESKY_APP_HANDLE, BLUESKY_APP_PASSWORD): only known posts heal via getPosts, posts written in between are not found',
    ...(options.onSkip ? { onSkip: options.onSkip } : {}),
    ...(options.onRefill ? { onRefill: options.onRefill } : {}),
    ...options.stream,
  });
  return {
    network,
    source,
    /** The official accounts' ids, from the handles the rules name. */
    authorByHandle: (handle: string) => network.authorByHandle(officialHandle(handle)),
    authorsOf: (ids: readonly string[]) => network.authorsByIds(ids),
    currentHandle: (did: string) => currentHandle(config, did),
  };
}

/**
 * The programme's rules name official accounts as bare names or full handles: on Bluesky a bare name is an
 * account under bsky.social, Bluesky's own handle domain; a full handle is taken as it is.
 */
export function fullOfficialHandle(handle: string, domain = OFFICIAL_HANDLE_DOMAIN): string {
  const bare = handle.replace(/^@/, '');
  return bare.includes('.') ? bare.toLowerCase() : `${bare.toLowerCase()}.${domain}`;
}

const dnsAndWellKnown = new HandleResolver({});

/**
 * An account's handle after an identity change: the one its DID document names now (read afresh, not from a
 * cache), if that handle resolves back to the account; null otherwise.
 */
async function currentHandle(config: BlueskyConfig, did: string): Promise<string | null> {
  const resolver = new IdResolver({
    plcUrl: config.plcUrl,
    ...(config.allowHttp ? { fetch: globalThis.fetch } : {}),
  });
  const doc = await resolver.did.resolve(did, true);
  const handle = doc ? parseToAtprotoDocument(doc).handle : undefined;
  return handle && (await resolveHandle(config, handle)) === did ? handle : null;
}

/**
 * The DID a handle names: through BLUESKY_HANDLE_RESOLVER_URL (com.atproto.identity.resolveHandle) when set, else
 * through DNS and HTTPS well-known, as the protocol says. Undefined when nothing answers to it.
 */
export async function resolveHandle(
  config: Pick<BlueskyConfig, 'handleResolverUrl'>,
  handle: string,
): Promise<string | undefined> {
  if (!config.handleResolverUrl) return dnsAndWellKnown.resolve(handle);
  const url = new URL('/xrpc/com.atproto.identity.resolveHandle', config.handleResolverUrl);
  url.searchParams.set('handle', handle);
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (response.status === 400) return undefined; // "Unable to resolve handle"
  if (!response.ok) throw new Error(`handle resolver answered ${response.status}`);
  const body = (await response.json()) as { did?: unknown };
  return typeof body.did === 'string' ? body.did : undefined;
}
