import { describe, expect, it } from 'vitest';
import { buildPlantedWorld, buildWorld } from './build-world';
import type { World } from './world';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const options = { seed: 7, now: NOW, members: 40, plant: { rings: 2, size: 5 } };

/** Who engaged with each author's posts (likes, replies, quotes, reposts), by engaging user. */
function receivedBy(world: World): Map<string, string[]> {
  const received = new Map<string, string[]>();
  const add = (authorId: string, from: string) =>
    received.set(authorId, [...(received.get(authorId) ?? []), from]);
  for (const post of world.postsByTime()) {
    for (const like of post.likes) add(post.authorId, like.userId);
    const target = post.ref && world.post(post.ref.id);
    if (target && target.authorId !== post.authorId) add(target.authorId, post.authorId);
  }
  return received;
}

describe('planted rings', () => {
  it('are deterministic by seed', () => {
    const a = buildPlantedWorld(options);
    const b = buildPlantedWorld(options);
    expect(a.world.toJSON()).toEqual(b.world.toJSON());
    expect(a.planted.rings.map((r) => r.map((u) => u.id))).toEqual(
      b.planted.rings.map((r) => r.map((u) => u.id)),
    );
    expect(buildPlantedWorld({ ...options, seed: 8 }).world.toJSON()).not.toEqual(a.world.toJSON());
  });

  it('ring members get most engagement from their ring; honest communities of the same size do not', () => {
    const { world, planted } = buildPlantedWorld(options);
    expect(planted.rings).toHaveLength(2);
    expect(planted.communities).toHaveLength(2);
    const received = receivedBy(world);
    const share = (group: { id: string }[]) => {
      const ids = new Set(group.map((u) => u.id));
      const shares = group.map((u) => {
        const from = received.get(u.id) ?? [];
        return from.filter((id) => ids.has(id)).length / Math.max(1, from.length);
      });
      return shares.reduce((s, x) => s + x, 0) / shares.length;
    };
    for (const ring of planted.rings) expect(share(ring)).toBeGreaterThan(0.7);
    for (const community of planted.communities) expect(share(community)).toBeLessThan(0.55);
    // Similar activity: every planted member posts and engages.
    const postsBy = (ids: string[]) => ids.map((id) => world.postCount(id));
    for (const group of [...planted.rings, ...planted.communities])
      expect(Math.min(...postsBy(group.map((u) => u.id)))).toBeGreaterThan(0);
  });

  it('planted into a world with activity ahead, spread over the whole span; the others keep what they had', () => {
    const DAY = 86_400_000;
    const base = { seed: 11, now: NOW, members: 30, days: 0, aheadDays: 30, postsPerMember: 6 };
    const plain = buildWorld(base);
    const { world, planted } = buildPlantedWorld({
      ...base,
      plant: { rings: 1, size: 5, communities: 0, backgroundEngagementsPerMember: 0 },
    });
    const ringIds = new Set(planted.rings.flat().map((u) => u.id));
    const ringPosts = world.postsByTime().filter((p) => ringIds.has(p.authorId) && !p.ref);
    expect(ringPosts.length).toBeGreaterThan(0);
    // Posts over the first two thirds of the span ahead (a span from now to now: nothing would be ahead).
    expect(Math.max(...ringPosts.map((p) => p.createdAt))).toBeGreaterThan(NOW + 5 * DAY);
    expect(Math.max(...ringPosts.map((p) => p.createdAt))).toBeLessThan(NOW + 30 * DAY * 0.67);
    // Without background engagement, every account and post the plain world has is there with the same likes.
    const likes = (w: World) =>
      new Map(
        w
          .postsByTime()
          .filter((p) => !ringIds.has(p.authorId))
          .map((p) => [p.id, p.likes.length]),
      );
    const before = likes(plain);
    const after = likes(world);
    const changed = [...before].filter(([id, n]) => after.get(id) !== n && !ringLiked(world, id, ringIds));
    expect(changed).toEqual([]);
  });
});

/** Whether a ring member liked this post (a ring's outward engagement may reach anyone's post). */
function ringLiked(world: World, postId: string, ringIds: Set<string>): boolean {
  return world.post(postId)?.likes.some((like) => ringIds.has(like.userId)) ?? false;
}
