import { createHash } from 'node:crypto';
import { decode, fromBytes, isBytes } from '@atcute/cbor';
import type { CarBlocks, CidBytes } from './bluesky-car';
import { linkBytes } from './bluesky-commit';

/** Why a commit's claim about its tree cannot be proven from its blocks. */
export class ProofError extends Error {
  override readonly name = 'ProofError';
}

/** A block's bytes, checked against its CID (sha-256, the only hash atproto uses): a forged block is refused. */
export function checkedBlock(blocks: CarBlocks, cid: CidBytes): Uint8Array {
  const bytes = blocks.get(cid);
  if (!bytes) throw new ProofError('a block the proof needs is missing');
  const digest = createHash('sha256').update(bytes).digest();
  // CIDv1: version, codec, hash function (0x12 sha-256), digest length (32), digest.
  if (cid.length !== 36 || cid[2] !== 0x12 || cid[3] !== 0x20) throw new ProofError('not a sha-256 CID');
  for (let i = 0; i < 32; i++)
    if (digest[i] !== cid[4 + i]) throw new ProofError('a block does not match its CID');
  return bytes;
}

type Entry = { p?: unknown; k?: unknown; v?: unknown; t?: unknown };
type Node = { l?: unknown; e?: unknown };

const encoder = new TextEncoder();

function compare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

/**
 * The CID a repository's tree (Merkle search tree, from `root`) holds at `path`, or null when it holds none, proven
 * from the commit's blocks: every node on the way is checked against its CID, so the answer is the signed commit's.
 * Only the nodes on the path to the key are decoded; `visited` receives each one's CID (the proof's path).
 */
export function provenAt(
  blocks: CarBlocks,
  root: CidBytes,
  path: string,
  visited?: CidBytes[],
): CidBytes | null {
  const key = encoder.encode(path);
  let cid: CidBytes | null = root;
  for (let depth = 0; cid && depth < 64; depth++) {
    const node = decode(checkedBlock(blocks, cid)) as Node;
    visited?.push(cid);
    const entries = Array.isArray(node.e) ? (node.e as Entry[]) : [];
    let previous: Uint8Array = new Uint8Array(0);
    let next: CidBytes | null = linkBytes(node.l);
    let descended = false;
    for (const entry of entries) {
      const suffix = isBytes(entry.k) ? fromBytes(entry.k) : entry.k instanceof Uint8Array ? entry.k : null;
      if (!suffix || typeof entry.p !== 'number') throw new ProofError('a tree node is malformed');
      const full: Uint8Array = new Uint8Array(entry.p + suffix.length);
      full.set(previous.subarray(0, entry.p));
      full.set(suffix, entry.p);
      const order = compare(key, full);
      if (order === 0) return linkBytes(entry.v);
      if (order < 0) {
        descended = true;
        break;
      }
      previous = full;
      next = linkBytes(entry.t);
    }
    cid = next;
    if (!descended && !cid) return null;
  }
  return null;
}
