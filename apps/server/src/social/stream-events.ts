/** The stream's events in the engine's terms (the port's stream half: stream-source.ts). */

/** A reference to another post, with its author (an event names both). */
export type PostRef = { id: string; authorId: string };

/**
 * What a network's event stream says, in the engine's terms (the adapter decodes its own records into these):
 * a post was written (perhaps replying to or quoting another), a post was liked or reposted, a record (post,
 * like or repost) was deleted, an account changed its handle.
 *
 * `cid` is the record's content hash as the network names it (Bluesky: the commit op's CID, `bafyrei…`), kept as
 * the evidence behind a point (issue 30); null or absent where the network has none, or the source did not say.
 * `proof` is the record's proof as the network's repositories give it (Bluesky: a CAR of the author's signed
 * commit, the tree's path and the record), kept so a record deleted since can still be shown to have existed;
 * absent where the source has none at hand (it is never fetched for an event).
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
      cid?: string | null;
      proof?: Uint8Array;
    }
  | {
      type: 'like' | 'repost';
      id: string;
      authorId: string;
      subject: PostRef;
      createdAt: Date;
      cid?: string | null;
      proof?: Uint8Array;
    }
  | { type: 'delete'; id: string; authorId: string }
  /** An account's identity changed (perhaps its handle: the engine asks the network for the confirmed one). */
  | { type: 'identity'; authorId: string };

export type PostEvent = Extract<StreamEvent, { type: 'post' }>;
