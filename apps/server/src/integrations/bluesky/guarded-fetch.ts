import { safeFetchWrap } from '@atproto-labs/fetch-node';
import * as CID from '@atcute/cid';
import { AtUri, isValidRecordKey } from '@atproto/syntax';

/** The longest any call of the trace job may take (a slow server holds one run, never the job). */
export const CALL_TIMEOUT_MS = 10_000;
/** The most a PDS's answer may weigh (a page of 100 likes is some 30 kB). */
export const RESPONSE_MAX_BYTES = 1024 * 1024;

type Fetch = typeof globalThis.fetch;

/**
 * A fetch for addresses a stranger chose (a PDS named in a DID document anyone can write): https only, public
 * unicast hosts only (names are checked as they resolve, so a name cannot point at us), no redirects, at most
 * 1 MB, 10 s. With `allowHttp` (a local test network only, as for the identity resolver) http and private hosts
 * are allowed, but the size cap, timeout and no-redirect rule stay.
 */
export function guardedFetch(options: { allowHttp: boolean; fetch?: Fetch }): Fetch {
  const safe = safeFetchWrap({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ssrfProtection: !options.allowHttp,
    responseMaxSize: RESPONSE_MAX_BYTES,
    timeout: CALL_TIMEOUT_MS,
  });
  return ((input: string | URL | Request, init?: RequestInit) =>
    safe(input, { ...init, redirect: 'error' })) as Fetch;
}

/** A fetch that gives up after `ms` (the AppView is configured, not chosen by strangers, but may hang). */
export function timedFetch(ms: number, fetch: Fetch = globalThis.fetch): Fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const timeout = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  }) as Fetch;
}

/**
 * A record a PDS listed, accepted only when it is this account's record of the expected collection (its AT URI is
 * exactly `at://{did}/{collection}/{rkey}` with a valid record key), its CID is a CID, and it names the post:
 * a hostile PDS cannot hand back another account's record id (which would count that record for it). Null
 * otherwise.
 */
export function ownListedRecord(
  record: { uri?: unknown; cid?: unknown; value?: { subject?: { uri?: unknown } } },
  did: string,
  collection: string,
  postId: string,
): { uri: string; cid: string } | null {
  if (typeof record.uri !== 'string' || typeof record.cid !== 'string') return null;
  if (record.value?.subject?.uri !== postId) return null;
  try {
    const uri = new AtUri(record.uri);
    const exact = `at://${did}/${collection}/${uri.rkey}`;
    if (uri.host !== did || uri.collection !== collection || !isValidRecordKey(uri.rkey)) return null;
    if (record.uri !== exact) return null;
    CID.fromString(record.cid);
    return { uri: record.uri, cid: record.cid };
  } catch {
    return null;
  }
}
