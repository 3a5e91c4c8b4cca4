import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostKeys } from './stream-waiting-keys';

/**
 * A post id: of Bluesky's form (DIDs and keys base32 or not), with another prefix or middle, or any text; and many
 * from few letters, so ids whose parts differ but join to the same text are met ('x:11/p/1', 'x:1/p/11').
 */
const postId = fc.oneof(
  fc
    .tuple(fc.stringMatching(/^[a1]{0,3}$/), fc.constantFrom('/p/', '/q/'), fc.stringMatching(/^[a1]{0,3}$/))
    .map(([a, middle, b]) => `x:${a}${middle}${b}`),
  fc
    .tuple(
      fc.constantFrom('at://did:plc:', 'at://did:web:', 'x:', ''),
      fc.oneof(fc.stringMatching(/^[a-z2-7]{0,24}$/), fc.string({ maxLength: 30 })),
      fc.constantFrom('/app.bsky.feed.post/', '/p/', '//', '/a:b/'),
      fc.oneof(fc.stringMatching(/^[a-z2-7]{0,14}$/), fc.string({ maxLength: 300 })),
    )
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 40, unit: 'binary' }),
);

/** Every id's key is the same each time it is asked, and no two ids share one. */
function expectKeys(keys: PostKeys, ids: string[]): void {
  const first = ids.map((id) => keys.keyOf(id));
  const byKey = new Map<string, string>();
  ids.forEach((id, n) => {
    expect(keys.keyOf(id)).toBe(first[n]);
    const other = byKey.get(first[n] ?? '');
    if (other !== undefined) expect(other).toBe(id);
    byKey.set(first[n] ?? '', id);
  });
}

describe("the waiting room's key for a post id (issue 31)", () => {
  it('is the same for the same id and differs for another', () => {
    fc.assert(
      fc.property(fc.array(postId, { maxLength: 30 }), (ids) => {
        const keys = new PostKeys();
        // Keys are strings too: one taken as a post id must not have the key it is.
        expectKeys(keys, [...ids, ...ids.map((id) => keys.keyOf(id))]);
      }),
      { numRuns: 300 },
    );
  });

  it('stays so once the pieces it names are all taken (ids of 300 forms)', () => {
    const ids = Array.from({ length: 600 }, (_, n) => `at://did:plc:${'a'.repeat(n % 7)}/m${n % 300}/k${n}`);
    expectKeys(new PostKeys(), [...ids, ...ids.reverse()]);
  });

  it("takes 48 bytes of heap for a Bluesky post's id where the id takes 88", () => {
    const key = new PostKeys().keyOf(`at://did:plc:${'a'.repeat(24)}/app.bsky.feed.post/3mabc22222222`);
    // A one-byte string: 16 bytes of header, a byte a char, to a multiple of 8.
    expect(key.length).toBeLessThanOrEqual(32);
    expect([...key].every((c) => c.charCodeAt(0) < 256)).toBe(true);
  });
});
