import type { ProgrammeRules } from '@manaboard/contract';
import type { PostMetrics } from '../../social/social-network';
import type { Namer } from '../../social/stream-interest';
import type { PostEvent, PostRef, StreamEvent } from '../../social/stream-source';
import { matchesProgramme } from '../programme/programme.service';

/** The job name under which the stream's cursor (and its errors) are kept in ingest_state. */
export const STREAM_JOB = 'stream';

export type { PostEvent, PostRef, StreamEvent } from '../../social/stream-source';

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
 * Whether a post names the programme: a keyword or hashtag in its text, a hashtag among its tags, or a mention of an
 * official account. Compiled once per rules version: the stream asks it for every post on the network, so a post
 * that holds none of the terms' text is turned down before the full match (matchesProgramme) runs.
 */
export function programmeNamer(
  rules: ProgrammeRules,
  officialIds: ReadonlySet<string>,
): Namer & { readonly terms: NamerTerms } {
  const hashtags = new Set(rules.hashtags.map((t) => t.replace(/^#/, '').toLowerCase()));
  // Every match in the text holds one of these (a keyword's first word, '#tag', '@handle'), lower-cased.
  const needles = [
    ...rules.keywords.flatMap(
      (k) =>
        k
          .toLowerCase()
          .match(/[\p{L}\p{N}_]+/gu)
          ?.slice(0, 1) ?? [],
    ),
    ...rules.hashtags.map((t) => `#${t.replace(/^#/, '').toLowerCase()}`),
    ...rules.officialHandles.map((h) => `@${h.replace(/^@/, '').toLowerCase()}`),
  ];
  const textNames = (text: string) => {
    const lower = text.toLowerCase();
    return needles.some((n) => lower.includes(n)) && matchesProgramme(rules, text);
  };
  const names = (p: PostEvent) =>
    textNames(p.text) ||
    p.tags.some((t) => hashtags.has(t.replace(/^#/, '').toLowerCase())) ||
    p.mentions.some((id) => officialIds.has(id));
  // Its terms, so the stream's worker thread builds the same namer (namerOf).
  return Object.assign(names, { terms: { rules, officials: [...officialIds] } });
}

/** What programmeNamer is made of, as plain data. */
export type NamerTerms = { rules: ProgrammeRules; officials: string[] };

/** The namer of terms a programmeNamer carried (null: names nothing). */
export function namerOf(terms: unknown): (post: PostEvent) => boolean {
  if (terms === null) return () => false;
  const { rules, officials } = terms as NamerTerms;
  return programmeNamer(rules, new Set(officials));
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
