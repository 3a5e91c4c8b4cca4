import { parseRecordUri } from './at-uri';
import type { Handles } from './handle';
import type { Http } from './http';
import type { Identities, Identity } from './identity';
import { ProofError, revTime, verifyRecordProof } from './proof';
import { typeOf } from './record-kinds';

export type Publication =
  | { status: 'verified'; uri: string; handle: string | null; signedAt: string | null; warnings: string[] }
  | { status: 'failed' | 'unchecked'; uri: string; detail: string; warnings: string[] };

/**
 * Checks the official account's post that published the ledger's hash: fetched from the account's own server with
 * its repository proof (signature by the key in its DID document, path to the record, CID as the index says), it
 * is a post whose text carries `sha256:<hex>` of the bytes we read; and the account is the programme's official
 * one, both ways: its DID document names a handle the rules list as official, and that handle, resolved on its own
 * (DNS or HTTPS, handle.ts), names this DID back. A document's handle alone is a claim anyone can write. The
 * ledger's URL in the text is checked as a warning: the hash alone binds the bytes.
 */
export async function checkPublication(
  deps: { http: Http; identities: Identities; handles: Handles },
  published: { uri: string; cid: string },
  expect: {
    sha256: string;
    url: string;
    officialHandles: readonly string[];
    /** The domain a bare official name (`manahq`) is a handle of: bsky.social on Bluesky. */
    officialDomain: string;
  },
): Promise<Publication> {
  const { uri } = published;
  const address = parseRecordUri(uri);
  if (!address || address.collection !== 'app.bsky.feed.post') {
    return { status: 'failed', uri, detail: `${uri} is not a post's AT URI`, warnings: [] };
  }
  let identity: Identity;
  try {
    identity = await deps.identities.resolve(address.did);
  } catch (error) {
    return { status: 'unchecked', uri, detail: (error as Error).message, warnings: [] };
  }
  const url = new URL('/xrpc/com.atproto.sync.getRecord', identity.pds);
  for (const [k, v] of Object.entries(address)) url.searchParams.set(k, v);
  let car: Uint8Array;
  try {
    car = (await deps.http.get(url.href, { accept: 'application/vnd.ipld.car', maxBytes: 2_000_000 })).body;
  } catch (error) {
    return { status: 'unchecked', uri, detail: (error as Error).message, warnings: [] };
  }
  let proven;
  try {
    proven = await verifyRecordProof({ car, ...address, key: identity.key, keyAt: identity.keyAt });
  } catch (error) {
    if (!(error instanceof ProofError)) throw error;
    return { status: 'failed', uri, detail: `its proof does not hold: ${error.message}`, warnings: [] };
  }
  if (!proven.found)
    return { status: 'failed', uri, detail: "the account's server proves the post absent", warnings: [] };
  if (proven.cid !== published.cid) {
    return {
      status: 'failed',
      uri,
      detail: `its CID is ${proven.cid}, the index says ${published.cid}`,
      warnings: [],
    };
  }
  const text = (proven.record as { text?: unknown }).text;
  if (typeOf(proven.record) !== 'app.bsky.feed.post' || typeof text !== 'string') {
    return { status: 'failed', uri, detail: 'the record is not a post with text', warnings: [] };
  }
  const named = /sha256:([0-9a-f]{64})/.exec(text)?.[0] ?? null;
  if (named !== expect.sha256) {
    const said = named ? `names ${named}` : 'names no sha256';
    return {
      status: 'failed',
      uri,
      detail: `the post ${said}, the ledger's bytes hash to ${expect.sha256}`,
      warnings: [],
    };
  }
  const warnings: string[] = [];
  if (!text.includes(expect.url)) warnings.push(`the post does not name the ledger's URL ${expect.url}`);
  const official = await checkOfficial(deps.handles, identity, expect);
  if (official.status === 'warning') warnings.push(official.detail);
  else if (official.status !== 'ok')
    return { status: official.status, uri, detail: official.detail, warnings };
  return { status: 'verified', uri, handle: identity.handle, signedAt: revTime(proven.rev), warnings };
}

/** Whether the post's account is the official one: its document's handle is official and resolves back to it. */
async function checkOfficial(
  handles: Handles,
  identity: Identity,
  expect: { officialHandles: readonly string[]; officialDomain: string },
): Promise<{ status: 'ok' | 'warning' | 'failed' | 'unchecked'; detail: string }> {
  const listed = expect.officialHandles.map((h) => fullHandle(h, expect.officialDomain));
  if (listed.length === 0)
    return {
      status: 'warning',
      detail: "the rules name no official handle: the post's account was not checked",
    };
  const handle = identity.handle?.toLowerCase() ?? null;
  if (!handle)
    return {
      status: 'failed',
      detail: `the DID document of ${identity.did} names no handle, so the post is not the official account's (${listed.map((h) => `@${h}`).join(', ')})`,
    };
  if (!listed.includes(handle))
    return {
      status: 'failed',
      detail: `the post is by @${handle}, which the rules' official handles (${listed.map((h) => `@${h}`).join(', ')}) do not name`,
    };
  const resolved = await handles.resolve(handle);
  if ('problem' in resolved)
    return {
      status: 'unchecked',
      detail: `the official handle @${handle} could not be resolved to check that it is ${identity.did}'s: ${resolved.problem}`,
    };
  if (resolved.did !== identity.did)
    return {
      status: 'failed',
      detail: `@${handle} resolves to ${resolved.did} (${resolved.via}), not to ${identity.did}, whose repository holds the post: its DID document claims a handle that is not its own`,
    };
  return { status: 'ok', detail: '' };
}

/** A bare official name (`manahq`) is a handle on the network's domain (`manahq.bsky.social`); a full one is itself. */
function fullHandle(name: string, domain: string): string {
  const handle = name.toLowerCase().replace(/^@/, '');
  return handle.includes('.') ? handle : `${handle}.${domain.toLowerCase()}`;
}
