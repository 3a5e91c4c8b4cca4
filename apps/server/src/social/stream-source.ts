/**
 * The stream half of the social-network port (issue 22): what a network's repository event stream says, in the
 * engine's terms, and the contract of a source that reads it. A source knows nothing of the database; the engine's
 * stream job (jobs/stream.job.ts) owns the loop, the stored cursor, gaps and backoff.
 */
import type { StreamEvent } from './stream-events';
import type { StreamInterest } from './stream-interest';

export type { PostEvent, PostRef, StreamEvent } from './stream-events';

/**
 * Where a stream stopped, as its source writes it: a JSON object stored as it is (Bluesky: `{ seq, time }`).
 * `time`, when the source knows it, is the network's time of the newest event read (ISO 8601): the engine reads
 * it to tell a gap (older than the source replays) and the lag.
 */
export type StreamCursor = Readonly<Record<string, unknown>> & { readonly time?: string };

/** What a source yields: the events the programme may care about, and the cursor after them. */
export type StreamBatch = {
  /** Kept events (those the interest says concern nobody were dropped before decoding their records fully). */
  events: StreamEvent[];
  cursor: StreamCursor;
  /** The network's time of the newest event read (null when unknown). */
  cursorTime: Date | null;
  /** Events read from the network for this batch, kept and dropped. */
  seen: number;
  /**
   * Where the oldest event still waiting for its post was read when the batch ended (the source's cursor of that
   * frame, Bluesky `{ seq, time }`; null: none waits). Stored beside `cursor`, in the same write: a process that dies
   * loses the waiting room, and the next start reads from here again to refill it (`read`'s `refill`). Absent: the
   * source does not say.
   */
  waiting?: StreamCursor | null;
};

/** A window of the network's time the stream could not replay. */
export type GapWindow = { since: Date; until: Date };

/** The programme's terms, as a gap fill searches for them. */
export type ProgrammeTerms = {
  keywords: readonly string[];
  hashtags: readonly string[];
  officialHandles: readonly string[];
};

/**
 * Finds, outside the stream, the posts written in a gap (e.g. a network's authenticated search for the programme's
 * terms) and hands them to `store` (which stores them by the stream's own rules and returns how many it tracked).
 * Resolves with what it did, or null when stopped by `signal` (the engine remembers the window for the next start).
 */
export type GapFiller = (
  window: GapWindow,
  terms: ProgrammeTerms,
  store: (events: readonly StreamEvent[]) => Promise<number>,
  signal: AbortSignal,
) => Promise<{ calls: number; found: number; tracked: number } | null>;

/**
 * A network's event stream. `read` yields batches from `cursor` (null: the live end) until `signal` aborts; the
 * engine stores each batch before it asks for the next, so a slow database holds the stream (a source buffers at
 * most a bounded amount). Once the next is asked for, a batch is the source's again: it may reclaim what its events
 * carry (Bluesky's worker thread frees their proofs' bytes), so a consumer copies what it keeps of a batch past it
 * (the waiting edges: stream-orphans.ts). A failure (connection lost, refused, stalled) rejects the iteration: the
 * engine backs off and calls `read` again from its stored cursor. Events the source cannot read (a malformed frame, a
 * record failing its schema, a bad signature) are skipped by the source and counted, never thrown.
 *
 * `refill` is the stored `waiting` (StreamBatch): when it lies before `cursor` and the interest has not read that
 * far yet (a new process), the source first reads from it through `cursor` again and hands those events to the
 * interest only, refilling its waiting room; it yields nothing of them (they were stored), then reads on as from
 * `cursor`.
 */
export interface StreamSource {
  /** For the log. */
  readonly name: string;
  /** How far back the network replays from a cursor: a stored cursor older than this is a gap. */
  readonly replayWindowMs: number;
  read(
    cursor: StreamCursor | null,
    interest: StreamInterest,
    signal: AbortSignal,
    refill?: StreamCursor | null,
  ): AsyncIterable<StreamBatch>;
  /** Fills a gap, when the network has a way to (else a gap heals only for known posts, by the refresh job). */
  readonly gapFill?: GapFiller | undefined;
  /** How a gap heals on this network, for the log and the operator (with or without `gapFill`). */
  readonly gapNote: string;
  /**
   * When a post was made (ms since the epoch), where the network's post ids tell (else undefined). With it, the
   * interest judges at once a like, repost, reply or quote of a post made long before it, rather than keeping it
   * waiting for a post the stream would have shown already (stream-interest.ts).
   */
  readonly postMadeAt?: ((postId: string) => number | undefined) | undefined;
}

/** Events a source skipped, by why (each also logged): the operator's metric of bad input. */
export type SkipReason =
  | 'malformed-frame'
  | 'oversized-frame'
  | 'unknown-frame'
  | 'malformed-record'
  | 'bad-signature'
  | 'stalled-connection'
  /** A frame whose seq is at or before one already handed on (a relay's re-send, or a seq that went back). */
  | 'replayed-seq';

/** The minimal log a source writes to (pino's shape). */
export type StreamLog = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};
