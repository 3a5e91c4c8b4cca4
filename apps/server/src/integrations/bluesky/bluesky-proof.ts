import { decode, encode } from '@atcute/cbor';
import * as CID from '@atcute/cid';
import type { CarBlocks, CidBytes } from './bluesky-car';
import { linkBytes } from './bluesky-commit';
import { checkedBlock, provenAt } from './bluesky-mst';

/** A proof larger than this is not kept (the contract's limit on a served proof is 1 MiB). */
const MAX_PROOF_BYTES = 1_000_000;

/** A CAR v1 archive: its header (DAG-CBOR `{version: 1, roots}`), then each block as varint(length) · CID · bytes. */
function carOf(root: CidBytes, blocks: readonly (readonly [CidBytes, Uint8Array])[]): Uint8Array {
  const header = encode({ version: 1, roots: [CID.toCidLink(CID.decode(root))] });
  const parts: Uint8Array[] = [varintOf(header.length), header];
  for (const [cid, bytes] of blocks) parts.push(varintOf(cid.length + bytes.length), cid, bytes);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** An unsigned LEB128 varint (the CAR format's length prefix). */
function varintOf(value: number): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

/**
 * The repository proof of a record a #commit frame created, from the frame's own blocks, or undefined when they do
 * not hold it (a commit too big to carry its blocks, a path missing a node): a CAR whose root is the author's
 * signed commit, with the tree's nodes from the commit's `data` root down to `path` and the record's block —
 * what `com.atproto.sync.getRecord` answers. A sync 1.1 frame carries all of them for a create (every node on the
 * new key's path is new). Built only for a record the programme keeps, never for every frame; the signature is
 * not checked here (a verifier checks it against the author's DID document).
 */
export function recordProof(
  commitLink: unknown,
  blocks: CarBlocks,
  path: string,
  recordCid: CidBytes,
): Uint8Array | undefined {
  try {
    const commitCid = linkBytes(commitLink);
    if (!commitCid) return undefined;
    const commitBytes = checkedBlock(blocks, commitCid);
    const root = linkBytes((decode(commitBytes) as { data?: unknown }).data);
    if (!root) return undefined;
    const nodes: CidBytes[] = [];
    const found = provenAt(blocks, root, path, nodes);
    if (!found || !sameCid(found, recordCid)) return undefined;
    const entries: Array<readonly [CidBytes, Uint8Array]> = [[commitCid, commitBytes]];
    for (const cid of nodes) entries.push([cid, checkedBlock(blocks, cid)]);
    entries.push([recordCid, checkedBlock(blocks, recordCid)]);
    const car = carOf(commitCid, entries);
    return car.length <= MAX_PROOF_BYTES ? car : undefined;
  } catch {
    // A frame whose blocks do not prove its own op: the record still counts (as without a proof), none is kept.
    return undefined;
  }
}

function sameCid(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
