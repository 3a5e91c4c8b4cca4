import { parseRecordUri } from './at-uri';
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
 * is a post whose text carries `sha256:<hex>` of the bytes we read. The ledger's URL and the account's handle are
 * checked too, as warnings: the hash alone binds the bytes.
 */
export async function checkPublication(
  deps: { http: Http; identities: Identities },
  published: { uri: string; cid: string },
  expect: { sha256: string; url: string; officialHandles: readonly string[] },
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
    proven = await verifyRecordProof({ car, ...address, key: identity.key });
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
  if (!isOfficial(identity.handle, expect.officialHandles)) {
    warnings.push(
      `the post is by @${identity.handle ?? identity.did}, which the rules' official handles (${expect.officialHandles.join(', ') || 'none'}) do not name`,
    );
  }
  return { status: 'verified', uri, handle: identity.handle, signedAt: revTime(proven.rev), warnings };
}

/** A bare official handle (`manahq`) names `manahq.<its network's domain>`; a full one names itself. */
function isOfficial(handle: string | null, officialHandles: readonly string[]): boolean {
  if (!handle) return false;
  const mine = handle.toLowerCase();
  return officialHandles.some((h) => {
    const theirs = h.toLowerCase().replace(/^@/, '');
    return theirs.includes('.') ? mine === theirs : mine.startsWith(`${theirs}.`);
  });
}
