import type { ProgrammeRules } from '@manaboard/contract';
import type { PostMetrics } from '../../social/social-network';
import type { PostEvent, PostRef, StreamEvent } from '../../social/stream-source';
import { programmeNamer } from './stream-namer';

/** The job name under which the stream's cursor (and its errors) are kept in ingest_state. */
export const STREAM_JOB = 'stream';

export type { PostEvent, PostRef, StreamEvent } from '../../social/stream-source';
// The namer lives apart, with no runtime import but the matcher: the stream's worker thread builds it (issue 33).
export { namerOf, programmeNamer, type NamerTerms } from './stream-namer';

export type RecordKind = 'like' | 'repost' | 'reply' | 'quote';

/** A record that points at a post: a like, a repost, or a post's reply or quote edge. */
export type Edge = {
  id: string;
  kind: RecordKind;
  authorId: string;
  subject: PostRef;
  createdAt: Date;
  seenAt: number;
  /** The record's content hash, where the network names one (null: X, or a source that did not say). */
  cid: string | null;
  /** The record's proof from the stream (stream-events.ts), kept with the record when it counts. */
  proof?: Uint8Array | undefined;
};

export const METRIC: Record<RecordKind, keyof PostMetrics> = {
  like: 'likes',
  repost: 'reposts',
  reply: 'replies',
  quote: 'quotes',
};

/** Every record of a batch that points at a post: likes, reposts, and the reply or quote edge of a post. */
export function edgesOf(events: readonly StreamEvent[], seenAt: number): Edge[] {
  const edges: Edge[] = [];
  for (const e of events) {
    if (e.type === 'like' || e.type === 'repost') {
      edges.push({
        id: e.id,
        kind: e.type,
        authorId: e.authorId,
        subject: e.subject,
        createdAt: e.createdAt,
        seenAt,
        cid: e.cid ?? null,
        ...(e.proof ? { proof: e.proof } : {}),
      });
    } else if (e.type === 'post') {
      if (e.replyTo) edges.push({ ...edgeBase(e, seenAt), kind: 'reply', subject: e.replyTo });
      if (e.quotes) edges.push({ ...edgeBase(e, seenAt), kind: 'quote', subject: e.quotes });
    }
  }
  return edges;
}

function edgeBase(e: PostEvent, seenAt: number) {
  return {
    id: e.id,
    authorId: e.authorId,
    createdAt: e.createdAt,
    seenAt,
    cid: e.cid ?? null,
    ...(e.proof ? { proof: e.proof } : {}),
  };
}

/**
 * The posts of a batch the programme follows: `candidates` name the programme (programmeNamer) and are by anyone
 * but the official accounts, originals and quotes (never replies, as on the polling networks); `officialPosts` are
 * the official accounts' own.
 */
export function programmePosts(
  rules: ProgrammeRules,
  officialIds: ReadonlySet<string>,
  events: readonly StreamEvent[],
  names: (post: PostEvent) => boolean = programmeNamer(rules, officialIds),
): { candidates: PostEvent[]; officialPosts: PostEvent[] } {
  const postEvents = events.flatMap((e) => (e.type === 'post' ? [e] : []));
  return {
    candidates: postEvents.filter((p) => !p.replyTo && !officialIds.has(p.authorId) && names(p)),
    officialPosts: postEvents.filter((p) => !p.replyTo && officialIds.has(p.authorId)),
  };
}
