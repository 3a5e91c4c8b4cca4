import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toMissingPost, toSocialAuthor, toSocialPost } from './x-adapter';
import { describeErrorBody } from './x-http';
import { xSingleUserSchema, xTweetListSchema, xUserListSchema } from './x-schemas';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8'));

/** X's documented example answers parse through the same schemas the client applies to every answer. */
describe("X's documented example responses", () => {
  it('search/recent: posts, authors and paging meta', () => {
    const list = xTweetListSchema.parse(fixture('search-recent.json'));
    expect(list.meta?.next_token).toBe('b26v89c19zqg8o3fosnsv6ltv4yyjh5u2f7i1hbu7by9');
    const [first, second] = (list.data ?? []).map(toSocialPost);
    expect(first).toMatchObject({
      kind: 'original',
      metrics: { likes: 55, replies: 3, reposts: 12, quotes: 2 },
    });
    expect(first?.createdAt.toISOString()).toBe('2021-03-19T19:59:10.000Z');
    expect(second).toMatchObject({ kind: 'quote', referencedPostId: '1372627771717800000' });
    const author = toSocialAuthor(list.includes?.users?.[0] ?? { id: '0', name: '', username: '' });
    expect(author).toMatchObject({ handle: 'TwitterDev', followers: 513961, protected: false });
  });

  it('tweets lookup: partial errors tell deleted from protected', () => {
    const list = xTweetListSchema.parse(fixture('tweets-lookup-partial.json'));
    expect(list.data).toHaveLength(1);
    expect((list.errors ?? []).map(toMissingPost)).toEqual([
      {
        id: '1276230436478386177',
        reason: 'deleted',
        detail: 'Could not find tweet with ids: [1276230436478386177].',
      },
      {
        id: '1278747501642657792',
        reason: 'protected',
        detail: 'Sorry, you are not authorized to see the Tweet with ids: [1278747501642657792].',
      },
    ]);
  });

  it('retweeted_by and users/me', () => {
    expect(xUserListSchema.parse(fixture('retweeted-by.json')).data?.map((u) => u.username)).toEqual([
      'TwitterSupport',
      'Twitter',
    ]);
    const me = xSingleUserSchema.parse(fixture('users-me.json'));
    expect(me.data && toSocialAuthor(me.data)).toMatchObject({ handle: 'TwitterDev', followers: 513961 });
  });

  it("error bodies give X's own message", () => {
    const errors = fixture('errors.json') as Record<string, unknown>;
    expect(describeErrorBody(JSON.stringify(errors.invalidRequest))).toBe(
      'The `max_results` query parameter value [5] is not between 10 and 100',
    );
    expect(describeErrorBody(JSON.stringify(errors.unauthorized))).toBe('Unauthorized');
    expect(describeErrorBody(JSON.stringify(errors.tooManyRequests))).toBe('Too Many Requests');
    expect(describeErrorBody('<html>bad gateway</html>')).toBeUndefined();
  });
});
