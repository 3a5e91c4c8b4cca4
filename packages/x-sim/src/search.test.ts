import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWorld } from './build-world';
import { hasStandalone, MAX_QUERY_LENGTH, printQuery, type QueryNode } from './query';
import { matches } from './query-match';
import { APP_BEARER, idsOf, simApp } from './test-support';
import type { World } from './world';
import { ON_TOPIC } from './world-words';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const WEEK = 7 * 86_400_000;

/** What recent search must answer, by brute force over every post (no index, no early stop). */
function bruteForce(world: World, ast: QueryNode): string[] {
  return world
    .postsByTime()
    .filter((post) => {
      const author = world.user(post.authorId);
      if (!author || !world.isVisible(post) || post.createdAt < world.now() - WEEK) return false;
      return matches(ast, {
        text: post.text,
        authorUsername: author.username,
        authorId: author.id,
        conversationId: post.conversationId,
        refType: post.ref?.type ?? null,
      });
    })
    .map((post) => post.id)
    .reverse();
}

/** Query trees over the world's own vocabulary, so that they match something. */
function queries(world: World): fc.Arbitrary<QueryNode> {
  const users = world.allUsers().map((u) => u.username);
  const conversations = world.postsByTime().map((p) => p.conversationId);
  const vocabulary = [...new Set(ON_TOPIC.join(' ').split(' ')), 'coffee', 'manaboard', 'gm'];
  const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
    fc.constantFrom(...vocabulary).map((value) => ({ kind: 'keyword', value }) as QueryNode),
    fc
      .constantFrom('pulled a rare', 'loving this', 'great post')
      .map((value) => ({ kind: 'phrase', value }) as QueryNode),
    fc
      .constantFrom('ManaBoard', 'manaboard', 'Other')
      .map((value) => ({ kind: 'hashtag', value }) as QueryNode),
    fc.constantFrom(...users).map((value) => ({ kind: 'mention', value }) as QueryNode),
    fc.constantFrom(...users).map((value) => ({ kind: 'from', value }) as QueryNode),
    fc.constantFrom(...conversations).map((value) => ({ kind: 'conversation', value }) as QueryNode),
    fc.constantFrom('retweet', 'reply', 'quote').map((value) => ({ kind: 'is', value }) as QueryNode),
  );
  const { tree } = fc.letrec<{ tree: QueryNode }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .array(tie('tree'), { minLength: 2, maxLength: 3 })
        .map((nodes) => ({ kind: 'and', nodes }) as QueryNode),
      fc
        .array(tie('tree'), { minLength: 2, maxLength: 3 })
        .map((nodes) => ({ kind: 'or', nodes }) as QueryNode),
      tie('tree').map((node) => ({ kind: 'not', node }) as QueryNode),
    ),
  }));
  // X refuses longer queries with a 400 (covered in query.test.ts); this property is about what valid ones find.
  return tree.filter((ast) => hasStandalone(ast) && printQuery(ast).length <= MAX_QUERY_LENGTH);
}

describe('recent search over the indexes', () => {
  it('returns exactly what a brute-force scan finds, each post once across pages, for random worlds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 10, max: 30 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (seed, pageSize, edits) => {
          const world = buildWorld({ seed, now: NOW, members: 12, days: 9, postsPerMember: 6, aheadDays: 1 });
          // Some posts deleted, an author protected, another renamed: search must follow.
          const posts = world.postsByTime();
          const users = world.allUsers();
          for (const [i, n] of edits.entries()) {
            if (i % 3 === 0) world.deletePost((posts[n % posts.length] ?? posts[0])?.id ?? '');
            else if (i % 3 === 1) world.protectUser(users[n % users.length]?.id ?? '');
            else world.rename(users[n % users.length]?.id ?? '', `renamed_${i}`);
          }
          const { app } = await simApp(world, { rateLimitScale: Infinity });
          await fc.assert(
            fc.asyncProperty(queries(world), async (ast) => {
              const seen: string[] = [];
              let token: string | undefined;
              do {
                const response = await app.inject({
                  url: `/2/tweets/search/recent?query=${encodeURIComponent(printQuery(ast))}&max_results=${pageSize}${token ? `&pagination_token=${token}` : ''}`,
                  headers: { authorization: `Bearer ${APP_BEARER}` },
                });
                expect(response.statusCode).toBe(200);
                const body = response.json();
                expect(body.meta.result_count).toBeLessThanOrEqual(pageSize);
                seen.push(...idsOf(body));
                token = body.meta.next_token;
              } while (token);
              expect(seen).toEqual(bruteForce(world, ast));
            }),
            { numRuns: 15 },
          );
          await app.close();
        },
      ),
      { numRuns: 12 },
    );
  });
});
