import { intBetween, pick } from './random';
import type { World } from './world';
import { FIRST_PARTS, LAST_PARTS, ON_TOPIC, REPLIES } from './world-words';
import type { SimPost, SimUser } from './world-types';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Planted groups: `rings` reciprocal-engagement rings of `size` accounts each, and as many honest communities of
 * the same size, posting as often and engaging as often. What differs is where the engagement goes:
 * - a ring member spends `ringInwardShare` (default 0.85) of their likes, replies, quotes and reposts on the
 *   other members' posts, and the rest of the world pays their posts little attention (`ringAppeal`, 0.3 of an
 *   honest author's): their engagement comes mostly from the closed group, which is what a ring is;
 * - an honest community member spends `communityInwardShare` (default 0.3) on friends and the rest anywhere;
 * - every generated member also engages (half as often) with posts anywhere, so honest authors have an audience.
 */
export type PlantOptions = {
  rings: number;
  size: number;
  /** Honest communities (default: as many as rings). */
  communities?: number;
  /** Likes, replies, quotes and reposts each planted member makes over the span (default 40). */
  engagementsPerMember?: number;
  ringInwardShare?: number;
  communityInwardShare?: number;
  ringAppeal?: number;
  /** Engagements each other (background) member makes with posts anywhere (default half of engagementsPerMember). */
  backgroundEngagementsPerMember?: number;
};

/** Who was planted, for tests to score a detector against. */
export type Planted = { rings: SimUser[][]; communities: SimUser[][] };

type Span = { start: number; end: number; postsPerMember: number; trackedShare: number; hashtags: string[] };

/** Plants rings and honest communities into a built world (see PlantOptions); deterministic for a seeded `random`. */
export function plantGroups(
  world: World,
  random: () => number,
  background: readonly SimUser[],
  options: PlantOptions,
  span: Span,
): Planted {
  const rings = groups(world, random, options.rings, options.size, 'r', span.start);
  const communities = groups(
    world,
    random,
    options.communities ?? options.rings,
    options.size,
    'c',
    span.start,
  );
  const postsOf = new Map<string, SimPost[]>();
  const tracked = () => `${pick(random, ON_TOPIC)} #${pick(random, span.hashtags)}`;
  const planted = [...rings.flat(), ...communities.flat()];
  for (const member of planted) {
    const count = Math.max(1, Math.round(span.postsPerMember * (0.6 + random() * 0.8)));
    const mine: SimPost[] = [];
    for (let k = 0; k < count; k++) {
      // Posts in the first two thirds of the span, so engagement has time to follow.
      const at = span.start + Math.floor(random() * (span.end - span.start) * 0.66);
      mine.push(world.createPost(member.id, tracked(), at));
    }
    postsOf.set(member.id, mine);
  }
  const ringIds = new Set(rings.flat().map((u) => u.id));
  // Every author's posts anywhere, weighted by appeal (ring posts draw less outside attention).
  const everyone = [...background, ...planted];
  const pool: Array<{ post: SimPost; weight: number }> = [];
  for (const author of everyone) {
    const posts =
      postsOf.get(author.id) ?? world.postsByTime().filter((p) => p.authorId === author.id && !p.ref);
    const weight = ringIds.has(author.id) ? (options.ringAppeal ?? 0.3) : 1;
    for (const post of posts) pool.push({ post, weight });
  }
  const totalWeight = pool.reduce((sum, p) => sum + p.weight, 0);
  const anywhere = (): SimPost | undefined => {
    let roll = random() * totalWeight;
    for (const entry of pool) {
      roll -= entry.weight;
      if (roll <= 0) return entry.post;
    }
    return pool[pool.length - 1]?.post;
  };
  const engage = (actor: SimUser, target: SimPost | undefined) => {
    if (!target || target.authorId === actor.id) return;
    const at = Math.min(span.end - 1, target.createdAt + intBetween(random, 60_000, 12 * HOUR_MS));
    const roll = random();
    const text = (base: string) =>
      random() < span.trackedShare ? `${base} #${pick(random, span.hashtags)}` : base;
    if (roll < 0.35) world.like(actor.id, target.id, at);
    else if (roll < 0.65) world.reply(actor.id, target.id, text(pick(random, REPLIES)), at);
    else if (roll < 0.85) world.quote(actor.id, target.id, text(pick(random, ON_TOPIC)), at);
    else world.repost(actor.id, target.id, at);
  };
  const perMember = options.engagementsPerMember ?? 40;
  const inward = (group: SimUser[], share: number) => {
    for (const member of group) {
      const friends = group.filter((u) => u.id !== member.id).flatMap((u) => postsOf.get(u.id) ?? []);
      for (let k = 0; k < perMember; k++)
        engage(member, random() < share && friends.length ? pick(random, friends) : anywhere());
    }
  };
  for (const ring of rings) inward(ring, options.ringInwardShare ?? 0.85);
  for (const community of communities) inward(community, options.communityInwardShare ?? 0.3);
  const perBackground = options.backgroundEngagementsPerMember ?? perMember / 2;
  for (const member of background) for (let k = 0; k < perBackground; k++) engage(member, anywhere());
  return { rings, communities };
}

function groups(world: World, random: () => number, count: number, size: number, tag: string, start: number) {
  const made: SimUser[][] = [];
  for (let g = 0; g < count; g++) {
    const group: SimUser[] = [];
    for (let i = 0; i < size; i++) {
      // Names like everyone else's (a detector must not learn from handles); the tag only keeps them unique.
      let username = '';
      while (!username || world.userByUsername(username)) {
        const base = `${pick(random, FIRST_PARTS)}_${pick(random, LAST_PARTS)}`.slice(0, 9);
        username = `${base}${tag}${g % 100}${i % 100}`;
      }
      group.push(
        world.createUser({
          username,
          createdAt: start - intBetween(random, 5, 2000) * DAY_MS,
          followers: Math.floor(10 ** (1 + random() * 3.5)),
          following: intBetween(random, 10, 900),
        }),
      );
    }
    made.push(group);
  }
  return made;
}
