const S32 = '234567abcdefghijklmnopqrstuvwxyz';
const VALUE = new Map([...S32].map((c, i) => [c, i]));

/**
 * When a TID says it was made (a record key as clients write it: 53 bits of microseconds since the epoch, then a
 * 10-bit clock id, in 13 base32-sortable chars), in ms since the epoch; undefined for any other key.
 */
export function tidMillis(rkey: string): number | undefined {
  if (rkey.length !== 13) return undefined;
  let micros = 0;
  for (let i = 0; i < 11; i++) {
    const v = VALUE.get(rkey[i] ?? '');
    // The top bit of a TID is 0: its first char is one of 2–9, a, b.
    if (v === undefined || (i === 0 && v > 7)) return undefined;
    micros = micros * 32 + v;
  }
  if (!VALUE.has(rkey[11] ?? '') || !VALUE.has(rkey[12] ?? '')) return undefined;
  return Math.floor(micros / 1000);
}

/**
 * When a post was made, as its id tells (its record key, a TID, written by the client when it made the post), or
 * undefined. The stream's interest judges at once a like of a post older than anything still waiting for its
 * post (social/stream-interest.ts); a key that is no TID says nothing, and the like waits as before.
 */
export function postMadeAt(postId: string): number | undefined {
  // The interest asks only about ids the adapter made from post AT URIs: the record key is the last segment.
  return tidMillis(postId.slice(postId.lastIndexOf('/') + 1));
}
