import type { ProgrammeRules } from '@manaboard/contract';
import type { PostMetrics } from '../../social/social-network';
import { matchesProgramme } from '../programme/programme.service';

/** The job name under which the stream's cursor (and its errors) are kept in ingest_state. */
export const STREAM_JOB = 'stream';

/** A reference to another post, with its author (an event names both). */
export type PostRef = { id: string; authorId: string };

/**
 * What a network's event stream says, in the engine's terms (the adapter decodes its own records into these):
 * a post was written (perhaps replying to or quoting another), a post was liked or reposted, a record (post,
 * like or repost) was deleted, an account changed its handle.
 */
export type StreamEvent =
  | {
      type: 'post';
      id: string;
      authorId: string;
      text: string;
      /** Hashtags the post carries (without '#'), also those not written in its text. */
      tags: readonly string[];
      /** Network user ids the post mentions. */
      mentions: readonly string[];
      createdAt: Date;
      replyTo: PostRef | null;
      quotes: PostRef | null;
    }
  | { type: 'like' | 'repost'; id: string; authorId: string; subject: PostRef; createdAt: Date }
  | { type: 'delete'; id: string; authorId: string }
  /** An account's identity changed (perhaps its handle: the engine asks the network for the confirmed one). */
  | { type: 'identity'; authorId: string };

export type PostEvent = Extract<StreamEvent, { type: 'post' }>;

export type RecordKind = 'like' | 'repost' | 'reply' | 'quote';

/** A record that points at a post: a like, a repost, or a post's reply or quote edge. */
export type Edge = {
  id: string;
  kind: RecordKind;
  authorId: string;
  subject: PostRef;
  createdAt: Date;
  seenAt: number;
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
      });
    } else if (e.type === 'post') {
      if (e.replyTo) edges.push({ ...edgeBase(e, seenAt), kind: 'reply', subject: e.replyTo });
      if (e.quotes) edges.push({ ...edgeBase(e, seenAt), kind: 'quote', subject: e.quotes });
    }
  }
  return edges;
}

function edgeBase(e: PostEvent, seenAt: number) {
  return { id: e.id, authorId: e.authorId, createdAt: e.createdAt, seenAt };
}

/**
 * The posts of a batch the programme follows: `candidates` name the programme (a keyword or hashtag in the text, a
 * hashtag among the post's tags, or a mention of an official account) and are by anyone but the official accounts,
 * originals and quotes (never replies, as on the polling networks); `officialPosts` are the official accounts' own.
 */
export function programmePosts(
  rules: ProgrammeRules,
  officialIds: ReadonlySet<string>,
  events: readonly StreamEvent[],
): { candidates: PostEvent[]; officialPosts: PostEvent[] } {
  const postEvents = events.flatMap((e) => (e.type === 'post' ? [e] : []));
  const hashtags = new Set(rules.hashtags.map((t) => t.replace(/^#/, '').toLowerCase()));
  const names = (p: PostEvent) =>
    matchesProgramme(rules, p.text) ||
    p.tags.some((t) => hashtags.has(t.replace(/^#/, '').toLowerCase())) ||
    p.mentions.some((id) => officialIds.has(id));
  return {
    candidates: postEvents.filter((p) => !p.replyTo && !officialIds.has(p.authorId) && names(p)),
    officialPosts: postEvents.filter((p) => !p.replyTo && officialIds.has(p.authorId)),
  };
}
