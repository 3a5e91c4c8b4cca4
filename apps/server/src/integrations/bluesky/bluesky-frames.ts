import { decodeFirst } from '@atcute/cbor';
import type { StreamInterest } from '../../social/stream-interest';
import type { SkipReason, StreamEvent } from '../../social/stream-source';
import { CarBlocks } from './bluesky-car';
import { commitEvents, type CommitBody, type CommitVerifier } from './bluesky-commit';
import { recordProof } from './bluesky-proof';

/**
 * A frame of com.atproto.sync.subscribeRepos, read:
 * - `events`: the events of the frame the programme may care about (often none), and the frame's cursor;
 * - `skip`: a frame not read (malformed, too big, a record failing its schema, a bad signature): logged and counted
 *   by the source; its cursor when it had one (the stream moves past it, it would be read the same way again);
 * - `info`: the relay's informational message (e.g. OutdatedCursor: the cursor is older than it replays);
 * - `error`: the relay's error frame: the connection ends.
 */
export type FrameResult =
  | {
      kind: 'events';
      seq: number;
      time: string | null;
      events: StreamEvent[];
      /** Records of the frame left out (malformed, failing their schema, unknown ops); the rest still count. */
      malformed: string[];
    }
  | { kind: 'skip'; reason: SkipReason; seq: number | null; time: string | null; detail: string }
  | { kind: 'info'; name: string; message: string }
  | { kind: 'error'; name: string; message: string };

export type FrameReaderOptions = {
  /** Frames larger than this are skipped unread (default 5 MB; the relay's commits are far smaller). */
  maxFrameBytes?: number;
  /** Checks each commit's signature (verified mode, BLUESKY_VERIFY_COMMITS); without it the relay is trusted. */
  verifier?: CommitVerifier;
};

export type FrameReader = {
  /** A promise only in verified mode, for a commit the programme keeps something of (its signature is checked). */
  read(frame: Uint8Array, interest: StreamInterest): FrameResult | Promise<FrameResult>;
  /**
   * The options to make the same reader in the stream's worker thread (bluesky-stream-thread.ts); absent when it
   * cannot be made there (a verifier: its key cache and fetches stay in the serving thread).
   */
  readonly portable?: { maxFrameBytes: number };
};

export const MAX_FRAME_BYTES = 5_000_000;

type Header = { op?: unknown; t?: unknown };

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : null;

/**
 * The per-frame core of the Bluesky stream source, a pure function of the frame's bytes and the interest (the
 * bench drives it from memory). Filter before decode: a commit's ops are read first; only the record blocks of
 * posts, likes and reposts are decoded (never the repository's tree nodes), deletions and identity events are
 * judged by their account alone, and account events, syncs and other collections are read no further.
 */
export function createFrameReader(options: FrameReaderOptions = {}): FrameReader {
  const maxBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  const verifier = options.verifier;
  const skip = (reason: SkipReason, detail: string, seq: number | null = null, time: string | null = null) =>
    ({ kind: 'skip', reason, seq, time, detail }) as const;

  const read = (frame: Uint8Array, interest: StreamInterest): FrameResult | Promise<FrameResult> => {
    let header: Header;
    let body: Record<string, unknown>;
    try {
      const [first, rest] = decodeFirst(frame);
      header = (first ?? {}) as Header;
      if (frame.length > maxBytes) {
        // Read only enough to move past it: its sequence number, never its blocks.
        const seq = peekSeq(rest);
        return skip('oversized-frame', `${frame.length} bytes`, seq);
      }
      const [second] = decodeFirst(rest);
      if (typeof second !== 'object' || second === null) return skip('malformed-frame', 'no body');
      body = second as Record<string, unknown>;
    } catch (error) {
      return skip('malformed-frame', error instanceof Error ? error.message : String(error));
    }
    if (header.op === -1) {
      return { kind: 'error', name: str(body.error) ?? 'Unknown', message: str(body.message) ?? '' };
    }
    const seq = num(body.seq);
    const time = str(body.time);
    // An event that begins to wait for its post records where it was read (the engine stores the oldest's).
    if (seq !== null) interest.readingAt(seq, time);
    switch (header.t) {
      case '#commit':
        if (seq === null || typeof body.repo !== 'string')
          return skip('malformed-frame', 'a commit without seq or repo', seq, time);
        return readCommit(frame, body as CommitBody, seq, time, interest);
      case '#identity': {
        const did = str(body.did);
        if (seq === null || !did)
          return skip('malformed-frame', 'an identity event without seq or did', seq, time);
        verifier?.forget(did); // its signing key may have changed
        const events: StreamEvent[] = interest.keep({ type: 'identity', authorId: did });
        return { kind: 'events', seq, time, events, malformed: [] };
      }
      case '#account':
      case '#sync':
      case '#handle':
      case '#migrate':
      case '#tombstone':
        // Nothing the programme counts (an account's status, a repository resynchronised): moved past.
        if (seq === null) return skip('malformed-frame', `${String(header.t)} without seq`, null, time);
        return { kind: 'events', seq, time, events: [], malformed: [] };
      case '#info':
        return { kind: 'info', name: str(body.name) ?? 'Unknown', message: str(body.message) ?? '' };
      default:
        return skip('unknown-frame', `frame type ${String(header.t)}`, seq, time);
    }
  };

  const readCommit = (
    frame: Uint8Array,
    body: CommitBody,
    seq: number,
    time: string | null,
    interest: StreamInterest,
  ): FrameResult | Promise<FrameResult> => {
    let blocks: CarBlocks;
    try {
      blocks = new CarBlocks(body.blocks);
    } catch (error) {
      return skip('malformed-frame', `blocks: ${(error as Error).message}`, seq, time);
    }
    const prove = (path: string, cid: Uint8Array) => recordProof(body.commit, blocks, path, cid);
    const { events, malformed } = commitEvents(body, blocks, interest, time, prove);
    const result: FrameResult = { kind: 'events', seq, time, events, malformed };
    // Verified mode checks only what would be stored: a commit the programme keeps nothing of changes nothing
    // whoever signed it (on the public network almost all of them), so its signature is not worth a check.
    if (!verifier || events.length === 0) return result;
    return verifier
      .verify(body, blocks)
      .then((problem) => (problem ? skip('bad-signature', problem, seq, time) : result));
  };

  return verifier ? { read } : { read, portable: { maxFrameBytes: maxBytes } };
}

/** An oversized frame's sequence number, read without decoding its blocks (null when it has none in front). */
function peekSeq(body: Uint8Array): number | null {
  try {
    const [value] = decodeFirst(body);
    return num((value as { seq?: unknown } | null)?.seq);
  } catch {
    return null;
  }
}
