import { createHash } from 'node:crypto';
import * as CAR from '@atcute/car';
import * as CBOR from '@atcute/cbor';
import * as CID from '@atcute/cid';
import { verifySig, type FoundPublicKey } from '@atcute/crypto';
import { MemoryBlockStore, MissingBlockError, NodeStore, NodeWalker } from '@atcute/mst';

/** A proof that does not hold: malformed, tampered with, or signed by another key. */
export class ProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProofError';
  }
}

/** What a repository proof shows, under the author's signature: the record and its CID, or that there is none. */
export type ProvenRecord =
  { found: true; cid: string; record: unknown; rev: string } | { found: false; rev: string };

type Commit = {
  did: string;
  version: number;
  data: CID.CidLink;
  rev: string;
  prev: CID.CidLink | null;
  sig: unknown;
};

function isCommit(value: unknown): value is Commit {
  if (!value || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.did === 'string' &&
    c.version === 3 &&
    CID.isCidLink(c.data) &&
    typeof c.rev === 'string' &&
    (c.prev === null || c.prev === undefined || CID.isCidLink(c.prev)) &&
    CBOR.isBytes(c.sig)
  );
}

/**
 * A repository (or the part of it a proof carries) whose blocks all hash to their CIDs and whose commit is the
 * expected account's, signed with its key: `find` walks its tree from the commit's `data` root.
 */
export type VerifiedRepository = {
  /** The commit's revision (a TID: when its author signed it). */
  rev: string;
  /** The CAR's bytes, which its blocks keep alive (their bytes are views of it). */
  bytes: number;
  blocks: number;
  /**
   * The record at `<collection>/<rkey>` and its CID, or that the tree proves it absent; a ProofError when the
   * tree is malformed or lacks a node or the record's block on the way.
   */
  find(collection: string, rkey: string): Promise<ProvenRecord>;
};

/**
 * Opens a repository CAR as `com.atproto.sync.getRecord` (a proof: the signed commit as its root and the tree's
 * nodes along one path) or `com.atproto.sync.getRepo` (the whole repository) answers: every block hashes to its
 * CID, the commit is the expected repository's and its signature holds with `key` (or, signed before a key
 * rotation, with the key in force at its rev). Throws a ProofError saying what does not hold.
 */
export async function openRepository(options: {
  car: Uint8Array;
  did: string;
  key: FoundPublicKey;
  /** The key in force at a revision, asked only when the current key does not hold (Identity.keyAt). */
  keyAt?: (rev: string) => Promise<FoundPublicKey | null>;
  /** Blocks to index at most (each costs memory beyond its bytes): more is refused as a ProofError. */
  maxBlocks?: number;
}): Promise<VerifiedRepository> {
  const blocks = new Map<string, Uint8Array<ArrayBuffer>>();
  const maxBlocks = options.maxBlocks ?? Infinity;
  let root: string;
  try {
    const reader = CAR.fromUint8Array(options.car);
    const first = reader.roots[0];
    if (!first) throw new ProofError('the proof (CAR) names no root');
    root = first.$link;
    for (const entry of reader) {
      const claimed = CID.toString(entry.cid);
      if (entry.cid.codec !== CID.CODEC_DCBOR && entry.cid.codec !== CID.CODEC_RAW) {
        throw new ProofError(`a block of the proof has an unknown codec (${claimed})`);
      }
      if (!hashesTo(entry.cid, entry.bytes))
        throw new ProofError(`a block of the proof does not hash to its CID (${claimed})`);
      // A view of the CAR, not a copy: a whole repository is held once.
      blocks.set(claimed, entry.bytes as Uint8Array<ArrayBuffer>);
      if (blocks.size > maxBlocks)
        throw new ProofError(`the repository holds more than ${maxBlocks} blocks, more than its size allows`);
    }
  } catch (error) {
    if (error instanceof ProofError) throw error;
    throw new ProofError(`the proof is not a readable CAR (${(error as Error).message.slice(0, 120)})`);
  }
  const commitBytes = blocks.get(root);
  if (!commitBytes) throw new ProofError('the proof lacks its commit block');
  const commit = decodeOrNull(commitBytes);
  if (!isCommit(commit)) throw new ProofError('the proof root is not a repository commit (version 3)');
  if (commit.did !== options.did)
    throw new ProofError(`the proof's commit is of ${commit.did}, not ${options.did}`);
  if (!(await signedBy(root, commit, options.key))) {
    // Signed before the account rotated its key: the key in force when it was signed (its rev's time) may hold.
    const earlier = await options.keyAt?.(commit.rev);
    if (!earlier || !(await signedBy(root, commit, earlier))) {
      throw new ProofError(
        options.keyAt
          ? `the commit's signature holds neither with the account's #atproto key nor with the key in force at ${revTime(commit.rev) ?? commit.rev}`
          : "the commit's signature does not hold with the account's #atproto key",
      );
    }
  }

  // One node store for every walk: its cache keeps the decoded nodes near the root between finds.
  const nodes = new NodeStore(new MemoryBlockStore(blocks));
  const find = async (collection: string, rkey: string): Promise<ProvenRecord> => {
    const path = `${collection}/${rkey}`;
    let value: CID.CidLink | null;
    try {
      const walker = await NodeWalker.create(nodes, commit.data.$link);
      value = await walker.findRpath(path);
    } catch (error) {
      if (error instanceof MissingBlockError)
        throw new ProofError(`the proof lacks a tree node on the path to ${path}`);
      throw new ProofError(`the proof's tree is malformed (${(error as Error).message.slice(0, 120)})`);
    }
    if (value === null) return { found: false, rev: commit.rev };
    const recordBytes = blocks.get(value.$link);
    if (!recordBytes) throw new ProofError(`the proof lacks the record block ${value.$link}`);
    const record = decodeOrNull(recordBytes);
    if (record === undefined) throw new ProofError(`the record block ${value.$link} is not DAG-CBOR`);
    return { found: true, cid: value.$link, record, rev: commit.rev };
  };
  return { rev: commit.rev, bytes: options.car.byteLength, blocks: blocks.size, find };
}

/**
 * Checks a repository proof (a CAR as `com.atproto.sync.getRecord` answers: the signed commit as its root, the
 * tree's nodes along the path to `<collection>/<rkey>`, and the record's block when it exists):
 * every block hashes to its CID, the commit is the expected repository's and its signature holds with `key`, and
 * the tree walked from the commit's `data` root (heights checked) holds the path — or proves it absent.
 */
export async function verifyRecordProof(options: {
  car: Uint8Array;
  did: string;
  collection: string;
  rkey: string;
  key: FoundPublicKey;
  /** The key in force at a revision, asked only when the current key does not hold (Identity.keyAt). */
  keyAt?: (rev: string) => Promise<FoundPublicKey | null>;
}): Promise<ProvenRecord> {
  return (await openRepository(options)).find(options.collection, options.rkey);
}

/** Whether `bytes` hash (SHA-256, synchronously: a whole repository has many blocks) to the CID. */
function hashesTo(cid: CID.Cid, bytes: Uint8Array): boolean {
  if (cid.version !== CID.CID_VERSION || cid.digest.codec !== CID.HASH_SHA256) return false;
  return createHash('sha256').update(bytes).digest().equals(cid.digest.contents);
}

/**
 * Commits whose signature held, by commit CID and key: the records of one repository read in one run mostly share
 * its current commit, and a CID names the exact bytes that were checked, so the check need not be repeated.
 */
const signedCommits = new Set<string>();

async function signedBy(cid: string, commit: Commit, key: FoundPublicKey): Promise<boolean> {
  const id = `${cid} ${Buffer.from(key.publicKeyBytes).toString('hex')}`;
  if (signedCommits.has(id)) return true;
  const { sig, ...unsigned } = commit;
  const signature = new Uint8Array(CBOR.fromBytes(sig as CBOR.Bytes));
  const valid = await verifySig(key, signature, CBOR.encode(unsigned)).catch(() => false);
  if (valid) {
    if (signedCommits.size >= 50_000) signedCommits.clear();
    signedCommits.add(id);
  }
  return valid;
}

function decodeOrNull(bytes: Uint8Array): unknown {
  try {
    return CBOR.decode(bytes);
  } catch {
    return undefined;
  }
}

const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

/** The time a repository revision (a TID) names, or null when it is not a TID. */
export function revTime(rev: string): string | null {
  if (!/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/.test(rev)) return null;
  let value = 0n;
  for (const char of rev) value = value * 32n + BigInt(TID_ALPHABET.indexOf(char));
  const micros = value >> 10n;
  const date = new Date(Number(micros / 1000n));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
