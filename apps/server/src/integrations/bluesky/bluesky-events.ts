import { array, check, looseObject, optional, refined, string } from '../../lib/plain-shape';
import type { PostRef, StreamEvent } from '../../social/stream-source';
import { claimedTime } from './bluesky-claimed-time';
import { parsePostId, POST_COLLECTION } from './bluesky-ids';

export const LIKE_COLLECTION = 'app.bsky.feed.like';
export const REPOST_COLLECTION = 'app.bsky.feed.repost';
/** The only collections the stream consumer asks for (the relay still sends every commit; the rest is skipped). */
export const STREAM_COLLECTIONS = [POST_COLLECTION, LIKE_COLLECTION, REPOST_COLLECTION];

/** One record operation of a commit, as the frame reader (or a gap fill's search result) gives it. */
export type CommitOp = {
  event: 'create' | 'update' | 'delete';
  did: string;
  collection: string;
  rkey: string;
  record?: unknown;
  /** When the network committed the operation (the stream's `time`). */
  time: string;
  /** The record's CID (`bafyrei…`): the commit op's, or the AppView's for a record found by a search. */
  cid?: string;
};

// Plain shape checks, not zod: this runs in the stream's worker thread for every record on the network, and zod
// would be compiled into that thread's heap for these few shapes alone (issue 33; lib/plain-shape.ts).
const strongRef = looseObject({ uri: string(8192) });
const facetFeature = looseObject({
  $type: optional(string()),
  did: optional(string(2048)),
  tag: optional(string(640)),
});
const datetime = refined(string(), (s) => !Number.isNaN(Date.parse(s)), 'not a datetime');

/** The parts of app.bsky.feed.post the programme reads; anything else in the record is ignored. */
export const postRecord = looseObject({
  text: string(30_000),
  createdAt: datetime,
  facets: optional(array(looseObject({ features: array(facetFeature, 100) }), 1000)),
  tags: optional(array(string(640), 8)),
  reply: optional(looseObject({ parent: strongRef, root: strongRef })),
  embed: optional(
    looseObject({
      $type: optional(string()),
      record: optional(looseObject({ uri: optional(string()), record: optional(strongRef) })),
    }),
  ),
});

/** The parts of a like or a repost the programme reads. */
export const subjectRecord = looseObject({ subject: strongRef, createdAt: datetime });

/** A post's AT URI → its id and author, or null when it does not name a post. */
function postRef(uri: string | undefined): PostRef | null {
  if (!uri) return null;
  const parsed = parsePostId(uri);
  return parsed ? { id: uri, authorId: parsed.did } : null;
}

/**
 * A post's time for the programme (daily limit, week, refresh window): when the network committed it. The
 * record's own `createdAt` is written by the client and could be set to any day; the commit time cannot.
 */
function committedAt(time: string, claimed: string): Date {
  const at = Date.parse(time);
  return new Date(Number.isNaN(at) ? Date.parse(claimed) : at);
}

/** Why a record was skipped (the consumer logs it once per batch; a malformed record never stops the stream). */
export class MalformedRecordError extends Error {
  override readonly name = 'MalformedRecordError';
}

/**
 * A commit operation → the engine's stream event, or null for what the programme never reads (other
 * collections). A post carries its text, its hashtags (tag facets and the record's `tags`), its mentions (DIDs of
 * mention facets), what it replies to (the parent) and what it quotes (an embedded record, alone or with media).
 * Throws MalformedRecordError for a record that does not have the shape of its collection.
 */
export function toStreamEvent(op: CommitOp): StreamEvent | null {
  if (!STREAM_COLLECTIONS.includes(op.collection)) return null;
  // Joined, not a template: V8 keeps a template's result as a tree of its pieces (and the rkey as a slice of the op's
  // path, which it then holds), some 250 bytes where the flat id needs 100; a like waiting for its post keeps its id
  // (issue 31: 50,000 of them in a full waiting room).
  const id = ['at://', op.did, '/', op.collection, '/', op.rkey].join('');
  if (op.event === 'delete') return { type: 'delete', id, authorId: op.did };
  if (op.collection === POST_COLLECTION) {
    const parsed = check(postRecord, op.record);
    if (!parsed.ok) throw new MalformedRecordError(`${id}: ${parsed.problem}`);
    const record = parsed.value;
    const tags = new Set(record.tags ?? []);
    const mentions = new Set<string>();
    for (const facet of record.facets ?? []) {
      for (const feature of facet.features) {
        if (feature.$type === 'app.bsky.richtext.facet#tag' && typeof feature.tag === 'string')
          tags.add(feature.tag);
        if (feature.$type === 'app.bsky.richtext.facet#mention' && typeof feature.did === 'string')
          mentions.add(feature.did);
      }
    }
    const embed = record.embed;
    const quotedUri =
      embed?.$type === 'app.bsky.embed.record'
        ? embed.record?.uri
        : embed?.$type === 'app.bsky.embed.recordWithMedia'
          ? embed.record?.record?.uri
          : undefined;
    return {
      type: 'post',
      id,
      authorId: op.did,
      text: record.text,
      tags: [...tags],
      mentions: [...mentions],
      createdAt: committedAt(op.time, record.createdAt),
      replyTo: postRef(record.reply?.parent.uri),
      quotes: postRef(quotedUri),
      ...(op.cid ? { cid: op.cid } : {}),
    };
  }
  const parsed = check(subjectRecord, op.record);
  if (!parsed.ok) throw new MalformedRecordError(`${id}: ${parsed.problem}`);
  const subject = postRef(parsed.value.subject.uri);
  if (!subject) return null; // a like of a feed generator or list, not of a post
  const commit = Date.parse(op.time);
  return {
    type: op.collection === LIKE_COLLECTION ? 'like' : 'repost',
    id,
    authorId: op.did,
    subject,
    // The client's claimed time, never after the commit (now, were the commit's time unreadable) nor before 1970:
    // a client can date a like anything.
    createdAt: claimedTime(
      Date.parse(parsed.value.createdAt),
      new Date(Number.isNaN(commit) ? Date.now() : commit),
    ),
    ...(op.cid ? { cid: op.cid } : {}),
  };
}
