import { decode } from '@atcute/cbor';
import * as CID from '@atcute/cid';
import type { StreamInterest } from '../../social/stream-interest';
import type { StreamEvent } from '../../social/stream-source';
import type { CarBlocks, CidBytes } from './bluesky-car';
import { MalformedRecordError, STREAM_COLLECTIONS, toStreamEvent } from './bluesky-events';
import { base32 } from '../../lib/base32';

/** A commit's op as the frame carries it: what changed at which path, and the new record's CID. */
type Op = { action?: unknown; path?: unknown; cid?: { $bytes?: Uint8Array; bytes?: Uint8Array } | null };

/** The fields of a #commit frame's body read here. */
export type CommitBody = {
  seq: number;
  repo: string;
  commit?: unknown;
  rev?: unknown;
  ops?: unknown;
  blocks?: unknown;
  time?: unknown;
  tooBig?: unknown;
};

/** Checks a commit in verified mode: null when it holds, else why not. */
export type CommitVerifier = {
  verify(body: CommitBody, blocks: CarBlocks): Promise<string | null>;
  /** The account's key may have changed (an identity event): read it again next time. */
  forget(did: string): void;
};

/** The repository proof of a record the commit created (bluesky-proof.ts), or undefined when its blocks lack it. */
export type RecordProver = (path: string, recordCid: CidBytes) => Uint8Array | undefined;

const WANTED = new Set(STREAM_COLLECTIONS);

/** A CID link's raw bytes, whichever shape the decoder gives it. */
export function linkBytes(link: unknown): CidBytes | null {
  if (typeof link !== 'object' || link === null) return null;
  const l = link as { $bytes?: unknown; bytes?: unknown };
  if (l.$bytes instanceof Uint8Array) return l.$bytes;
  if (l.bytes instanceof Uint8Array) return l.bytes;
  return null;
}

/**
 * A CID's bytes as its text form (`bafyrei…`: multibase `b`, base32), or undefined when they are not a CID. Written
 * out here as one flat string: @atcute's `CID.toString` joins it piece by piece, and V8 keeps such a string as a
 * tree of some ten pieces, ~300 bytes where the text needs 80. A like waiting for its post holds its CID's text
 * (issue 31: 50,000 of them in a full waiting room).
 */
export function cidText(bytes: CidBytes): string | undefined {
  try {
    return base32('b', CID.decode(bytes).bytes);
  } catch {
    return undefined;
  }
}

/**
 * A commit's events the interest keeps, op by op in commit order: a deletion is judged by its account before
 * anything is decoded, a post, like or repost has its own record block decoded (found by its CID among the
 * commit's blocks; the tree nodes are never decoded), every other collection is passed over. A record that cannot
 * be read, or fails its schema, is left out and named in `malformed` (the other ops still count).
 */
export function commitEvents(
  body: CommitBody,
  blocks: CarBlocks,
  interest: StreamInterest,
  time: string | null,
  prove?: RecordProver,
): { events: StreamEvent[]; malformed: string[] } {
  const events: StreamEvent[] = [];
  const malformed: string[] = [];
  const ops = Array.isArray(body.ops) ? (body.ops as Op[]) : [];
  const did = body.repo;
  for (const op of ops) {
    if (typeof op.path !== 'string') {
      malformed.push('an op without a path');
      continue;
    }
    const slash = op.path.indexOf('/');
    const collection = slash > 0 ? op.path.slice(0, slash) : op.path;
    if (!WANTED.has(collection)) continue;
    const rkey = op.path.slice(slash + 1);
    const id = `at://${did}/${op.path}`;
    if (op.action === 'delete') {
      if (interest.concernsAccount(did)) events.push({ type: 'delete', id, authorId: did });
      continue;
    }
    if (op.action !== 'create' && op.action !== 'update') {
      malformed.push(`${id}: unknown action ${String(op.action)}`);
      continue;
    }
    const cid = linkBytes(op.cid);
    const bytes = cid ? blocks.get(cid) : undefined;
    if (!bytes) {
      malformed.push(`${id}: its record block is missing`);
      continue;
    }
    try {
      const record: unknown = decode(bytes);
      const text = cid ? cidText(cid) : undefined;
      const event = toStreamEvent({
        event: op.action,
        did,
        collection,
        rkey,
        record,
        time: time ?? new Date().toISOString(),
        // The op's CID is the record's content hash, kept as the evidence behind a point (issue 30). Written out
        // before the interest sees the event: a like may wait there for its post and be passed on later.
        ...(text ? { cid: text } : {}),
      });
      if (!event) continue;
      const kept = interest.keep(event);
      // The record's proof is built only once the interest keeps it at once (a tiny share of the stream): a record
      // that waits for its post, or is passed over, never costs one (docs/networks.md, "Checking the board").
      const points = event.type !== 'post' || event.replyTo !== null || event.quotes !== null;
      const proof = prove && cid && points && kept.includes(event) ? prove(op.path, cid) : undefined;
      events.push(...(proof ? kept.map((k) => (k === event ? { ...k, proof } : k)) : kept));
    } catch (error) {
      malformed.push(
        error instanceof MalformedRecordError ? error.message : `${id}: ${(error as Error).message}`,
      );
    }
  }
  return { events, malformed };
}
