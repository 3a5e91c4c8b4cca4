import { describe, expect, it } from 'vitest';
import { parsePostId, postId, postUrl } from './bluesky-ids';

describe('Bluesky ids', () => {
  const did = 'did:plc:abcdefghijklmnopqrstuvwx';

  it('names a post by its AT URI and reads it back', () => {
    const id = postId(did, '3lqzxkq2abc2k');
    expect(id).toBe(`at://${did}/app.bsky.feed.post/3lqzxkq2abc2k`);
    expect(parsePostId(id)).toEqual({ did, rkey: '3lqzxkq2abc2k' });
  });

  it('refuses what is not a post', () => {
    expect(parsePostId(`at://${did}/app.bsky.feed.like/3lqzxkq2abc2k`)).toBeNull();
    expect(parsePostId('1234567890')).toBeNull();
    expect(parsePostId('at://alice.test/app.bsky.feed.post/3lqzxkq2abc2k')).toBeNull();
  });

  it("links to the post's public page by handle and record key", () => {
    expect(postUrl('https://bsky.app', 'alice.bsky.social', postId(did, '3lqzxkq2abc2k'))).toBe(
      'https://bsky.app/profile/alice.bsky.social/post/3lqzxkq2abc2k',
    );
  });
});
