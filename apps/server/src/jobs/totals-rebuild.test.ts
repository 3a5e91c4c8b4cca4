import fc from 'fast-check';
import { World, type SimPost } from '@manaboard/x-sim';
import { describe, expect, it } from 'vitest';
import { manaResponseSchema, postsResponseSchema } from '@manaboard/contract';
import { changeRules } from '../modules/mana/rescore.service';
import { rebuildAllTotals } from '../modules/mana/totals.service';
import { activeRules } from '../modules/programme/programme.service';
import { linkMember, startManaHarness, type ManaHarness } from '../test/mana-harness';
import { testDatabaseKinds } from '../test/test-database';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-20T20:00:00Z');

type Event =
  | { type: 'post'; user: number; tracked: boolean }
  | { type: 'engage'; post: number; likes: number; replies: number }
  | { type: 'delete'; post: number }
  | { type: 'protect'; user: number; value: boolean }
  | { type: 'advance'; hours: number }
  | { type: 'link'; user: number }
  | { type: 'rules'; dailyLimit: number; like: number; reply: number }
  | { type: 'cycle' };

const event: fc.Arbitrary<Event> = fc.oneof(
  { arbitrary: fc.record({ type: fc.constant('post'), user: fc.nat(4), tracked: fc.boolean() }), weight: 4 },
  {
    arbitrary: fc.record({
      type: fc.constant('engage'),
      post: fc.nat(50),
      likes: fc.nat(20),
      replies: fc.nat(5),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ type: fc.constant('delete'), post: fc.nat(50) }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('protect'), user: fc.nat(4), value: fc.boolean() }), weight: 1 },
  {
    arbitrary: fc.record({ type: fc.constant('advance'), hours: fc.integer({ min: 1, max: 60 }) }),
    weight: 2,
  },
  { arbitrary: fc.record({ type: fc.constant('link'), user: fc.nat(4) }), weight: 1 },
  {
    arbitrary: fc.record({
      type: fc.constant('rules'),
      dailyLimit: fc.integer({ min: 1, max: 6 }),
      like: fc.nat(3),
      reply: fc.nat(4),
    }),
    weight: 1,
  },
  { arbitrary: fc.constant({ type: 'cycle' as const }), weight: 2 },
);

async function board(h: ManaHarness) {
  const all = manaResponseSchema.parse((await h.get('/api/mana?limit=100')).body).data;
  const weekly = manaResponseSchema.parse((await h.get('/api/mana?limit=100&weekly=true')).body).data;
  const posts = postsResponseSchema.parse((await h.get('/api/posts?limit=100')).body).data;
  return { all: all.authors, weekly: weekly.authors, posts };
}

describe.each(testDatabaseKinds())('incremental totals (%s)', (kind) => {
  it('equal a full rebuild after any sequence of posts, engagement, deletions, protection, linking, rules changes and time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 5, maxLength: 30 }), async (events) => {
        const world = new World(START);
        const users = [0, 1, 2, 3, 4].map((i) => world.createUser({ username: `user_${i}` }));
        const posts: SimPost[] = [];
        const linked = new Set<number>();
        const h = await startManaHarness(kind, world, { rateLimitScale: Infinity });
        try {
          for (const e of events) {
            if (e.type === 'post') {
              const author = users[e.user];
              if (author)
                posts.push(
                  world.createPost(author.id, e.tracked ? 'go #ManaBoard' : 'lunch', world.now() - 1),
                );
            } else if (e.type === 'engage') {
              const target = posts[e.post % Math.max(posts.length, 1)];
              if (target) world.addOrganic(target.id, { likes: e.likes, replies: e.replies });
            } else if (e.type === 'delete') {
              const target = posts[e.post % Math.max(posts.length, 1)];
              if (target) world.deletePost(target.id);
            } else if (e.type === 'protect') {
              const user = users[e.user];
              if (user) world.protectUser(user.id, e.value);
            } else if (e.type === 'advance') {
              world.advance(e.hours * HOUR);
            } else if (e.type === 'link') {
              const user = users[e.user];
              if (user && !linked.has(e.user)) {
                linked.add(e.user);
                await linkMember(h, user, world.now());
              }
            } else if (e.type === 'rules') {
              const { rules } = await activeRules(h.database.db);
              await changeRules(
                h.database.db,
                {
                  ...rules,
                  dailyLimit: e.dailyLimit,
                  weights: { ...rules.weights, like: e.like, reply: e.reply },
                },
                { source: 'test', actor: 'test', now: new Date(world.now()) },
              );
            } else {
              await h.worker.runCycle();
            }
          }
          await h.worker.runCycle();
          const incremental = await board(h);
          await rebuildAllTotals(h.database.db, await activeRules(h.database.db), new Date(world.now()));
          expect(await board(h)).toEqual(incremental);
        } finally {
          await h.close();
        }
      }),
      { numRuns: kind === 'pglite' ? 4 : 10 },
    );
  }, 120_000); // a property over whole worker runs: several rebuilds per case, slow on a loaded 2-core machine
});
