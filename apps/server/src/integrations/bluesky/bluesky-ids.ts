import { AtUri } from '@atproto/syntax';
import type { NetworkPages } from '../../social/social-network';

/**
 * How the Bluesky adapter names things in the engine's terms (docs/networks.md):
 * - a member's network user id is their DID (stable across handle changes);
 * - a post's id is its AT URI, `at://{did}/app.bsky.feed.post/{rkey}` (the record key is a TID, so ids of one
 *   author sort by time).
 */
export const POST_COLLECTION = 'app.bsky.feed.post';

export function postId(did: string, rkey: string): string {
  return `at://${did}/${POST_COLLECTION}/${rkey}`;
}

/** The post's author DID and record key, or null when the id is not a post's AT URI. */
export function parsePostId(id: string): { did: string; rkey: string } | null {
  try {
    const uri = new AtUri(id);
    if (uri.collection !== POST_COLLECTION || !uri.rkey || !uri.host.startsWith('did:')) return null;
    return { did: uri.host, rkey: uri.rkey };
  } catch {
    return null;
  }
}

/** The post's public page: `{base}/profile/{handle}/post/{rkey}` (base: https://bsky.app). */
export function postUrl(base: string, handle: string, id: string): string {
  const parsed = parsePostId(id);
  const rkey = parsed?.rkey ?? encodeURIComponent(id);
  return `${base}/profile/${encodeURIComponent(handle)}/post/${encodeURIComponent(rkey)}`;
}

/**
 * Bluesky's public pages for the records page: a reply or quote is a post, at
 * `{base}/profile/{did}/post/{rkey}`; a like or repost has no page of its own (null: its author's profile is
 * linked); an account's page is `{base}/profile/{did}` (a DID always resolves, a handle may have changed).
 */
export function blueskyPages(base: string): NetworkPages {
  return {
    record: ({ kind, id }) => {
      if (kind !== 'reply' && kind !== 'quote') return null;
      const parsed = parsePostId(id);
      return parsed
        ? `${base}/profile/${didInPath(parsed.did)}/post/${encodeURIComponent(parsed.rkey)}`
        : null;
    },
    profile: ({ id }) => `${base}/profile/${didInPath(id)}`,
  };
}

/** A DID as bsky.app writes it in a path (its colons are path characters); anything else encoded. */
function didInPath(did: string): string {
  return /^did:[a-z]+:[A-Za-z0-9._:-]+$/.test(did) ? did : encodeURIComponent(did);
}
