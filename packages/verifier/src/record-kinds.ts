/** What a record's collection must be for each kind of line (Bluesky's lexicons). */
export const collectionOfKind: Record<'like' | 'repost' | 'reply' | 'quote', string> = {
  like: 'app.bsky.feed.like',
  repost: 'app.bsky.feed.repost',
  reply: 'app.bsky.feed.post',
  quote: 'app.bsky.feed.post',
};

type Json = Record<string, unknown>;

function field(value: unknown, ...path: string[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Json)[key];
  }
  return at;
}

/**
 * The post a record is about, read as its kind says: a like's or repost's `subject.uri`, a reply's
 * `reply.parent.uri`, a quote's embedded record (`app.bsky.embed.record`, or the record of
 * `app.bsky.embed.recordWithMedia`). Null when the record says none.
 */
export function subjectOf(kind: 'like' | 'repost' | 'reply' | 'quote', record: unknown): string | null {
  const found =
    kind === 'like' || kind === 'repost'
      ? field(record, 'subject', 'uri')
      : kind === 'reply'
        ? field(record, 'reply', 'parent', 'uri')
        : field(record, 'embed', '$type') === 'app.bsky.embed.recordWithMedia'
          ? field(record, 'embed', 'record', 'record', 'uri')
          : field(record, 'embed', 'record', 'uri');
  return typeof found === 'string' ? found : null;
}

/** The record's `$type`, when it names one. */
export function typeOf(record: unknown): string | null {
  const found = field(record, '$type');
  return typeof found === 'string' ? found : null;
}
