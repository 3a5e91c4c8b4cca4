import { World } from '@manaboard/x-sim';
import { manaResponseSchema, postsResponseSchema } from '@manaboard/contract';
import type { SocialNetwork } from '../social/social-network';
import type { ManaHarness } from './mana-harness';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-18T12:00:00Z');

/** 40 members with 4 tracked posts each over two days: more than one search page and one lookup batch. */
export function busyWorld(): World {
  const world = new World(START);
  world.createUser({ username: 'ManaboardHQ', official: true });
  for (let m = 0; m < 40; m++) {
    const user = world.createUser({ username: `member_${m}` });
    for (let k = 0; k < 4; k++) {
      const post = world.createPost(
        user.id,
        `day ${k} with #ManaBoard`,
        START - 48 * HOUR + (m * 4 + k) * 60_000,
      );
      world.addOrganic(post.id, { likes: (m * 7 + k) % 13, replies: k, reposts: m % 3 });
    }
  }
  return world;
}

/** The board and the posts as the API serves them, for comparing a disturbed run with an undisturbed one. */
export async function snapshot(h: ManaHarness) {
  const board = manaResponseSchema.parse((await h.get('/api/mana?limit=100')).body).data;
  const posts = postsResponseSchema.parse((await h.get('/api/posts?limit=100')).body).data;
  // Each harness's simulated X has its own port, which shows in avatar URLs.
  const path = (url: string | null) => url && new URL(url).pathname;
  return {
    authors: board.authors.map((a) => ({ ...a, profileImageUrl: path(a.profileImageUrl) })),
    total: board.total,
    posts: posts.map((p) => ({ ...p, profileImageUrl: path(p.profileImageUrl) })),
  };
}

/** The port, counting the calls made through it. */
export function counted(network: SocialNetwork): { network: SocialNetwork; calls: () => number } {
  let calls = 0;
  const wrapped = new Proxy(network, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { network: wrapped, calls: () => calls };
}
