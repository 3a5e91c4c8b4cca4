import { intBetween, pick, seededRandom } from './random';
import { World } from './world';
import { plantGroups, type PlantOptions, type Planted } from './world-rings';
import { FIRST_PARTS, LAST_PARTS, OFF_TOPIC, ON_TOPIC, REPLIES } from './world-words';
import type { NewUser } from './world-users';
import type { SimPost, SimUser } from './world-types';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What the generated world looks like; every option but seed and now has a default. */
export type BuildWorldOptions = {
  seed: number;
  /** The world's "now" when built: history lies before it. */
  now: number;
  /** Generated members (default 50). */
  members?: number;
  /** Members of your own, created as given, besides the generated ones. */
  users?: NewUser[];
  /** The programme's official accounts (default ManaboardHQ). */
  officialHandles?: string[];
  /** Keywords and hashtags (without #) tracked posts use (defaults: manaboard, ManaBoard). */
  keywords?: string[];
  hashtags?: string[];
  /** How far back the history reaches, in days (default 14). */
  days?: number;
  /** Activity planned after now, in days (default 0): it appears as the clock advances, for live demos. */
  aheadDays?: number;
  /** Posts per member over the whole span, history and ahead (on average; default 8). */
  postsPerMember?: number;
  /** Share of member posts that use the programme's keywords, hashtags or mentions (default 0.7). */
  trackedShare?: number;
};

/**
 * A deterministic world: official accounts and their daily posts, members with creation dates and followers,
 * member posts (tracked by keyword, hashtag or mention, or off-topic), quotes, replies and reposts, outside
 * engagement that grows as posts age, and members' likes, replies and reposts of official posts, minutes to
 * hours after them. The same options give the same world, id for id (a seeded PRNG, no wall clock).
 */
export function buildWorld(options: BuildWorldOptions): World {
  return build(options).world;
}

/**
 * A world as buildWorld makes it, with reciprocal-engagement rings and honest communities of the same size and
 * activity planted into it (see PlantOptions), and who they are. Deterministic by seed like buildWorld.
 */
export function buildPlantedWorld(options: BuildWorldOptions & { plant: PlantOptions }): {
  world: World;
  planted: Planted;
} {
  const built = build(options);
  const planted = plantGroups(built.world, built.random, built.members, options.plant, {
    start: built.start,
    // The whole span, history and ahead, as the rest of the world's activity.
    end: options.now + (options.aheadDays ?? 0) * DAY_MS,
    postsPerMember: options.postsPerMember ?? 8,
    trackedShare: options.trackedShare ?? 0.7,
    hashtags: options.hashtags ?? ['ManaBoard'],
  });
  return { world: built.world, planted };
}

function build(options: BuildWorldOptions) {
  const random = seededRandom(options.seed);
  const days = options.days ?? 14;
  const start = options.now - days * DAY_MS;
  const end = options.now + (options.aheadDays ?? 0) * DAY_MS;
  const world = new World(options.now);
  const keywords = options.keywords ?? ['manaboard'];
  const hashtags = options.hashtags ?? ['ManaBoard'];
  const officials = (options.officialHandles ?? ['ManaboardHQ']).map((username) =>
    world.createUser({
      username,
      name: `${username} (official)`,
      createdAt: start - 900 * DAY_MS,
      followers: 50_000,
      following: 12,
      official: true,
    }),
  );
  const members = generateMembers(world, random, options.members ?? 50, start);
  for (const user of options.users ?? []) members.push(world.createUser(user));

  // Plan every post first, then create them in time order (so quotes and replies find their targets).
  type Planned = { at: number; author: SimUser; text: string; official: boolean };
  const planned: Planned[] = [];
  for (const official of officials) {
    for (let d = 0; start + d * DAY_MS < end; d++) {
      planned.push({
        at: start + d * DAY_MS + intBetween(random, 1, DAY_MS - 1),
        author: official,
        text: `Season update day ${d + 1}: ${pick(random, ON_TOPIC)} #${pick(random, hashtags)}`,
        official: true,
      });
    }
  }
  const trackedShare = options.trackedShare ?? 0.7;
  const perMember = options.postsPerMember ?? 8;
  for (const member of members) {
    const count = Math.max(0, Math.round(perMember * (0.3 + random() * 1.4)));
    for (let k = 0; k < count; k++) {
      const at = start + Math.floor(random() * (end - start));
      const marker = pick(random, [
        `#${pick(random, hashtags)}`,
        pick(random, keywords),
        `@${pick(random, officials.length ? officials : members).username}`,
      ]);
      const text = random() < trackedShare ? `${pick(random, ON_TOPIC)} ${marker}` : pick(random, OFF_TOPIC);
      planned.push({ at, author: member, text, official: false });
    }
  }
  planned.sort((a, b) => a.at - b.at);

  const made: SimPost[] = [];
  const officialPosts: SimPost[] = [];
  for (const plan of planned) {
    const post = world.createPost(plan.author.id, plan.text, plan.at);
    made.push(post);
    if (plan.official) officialPosts.push(post);
    // Now and then a member quotes, replies to or reposts something recent.
    if (random() < 0.08 && made.length > 1 && members.length > 0) {
      const target = made[made.length - 1 - Math.floor(random() * Math.min(50, made.length))] as SimPost;
      const actor = pick(random, members);
      const at = plan.at + intBetween(random, 1_000, HOUR_MS);
      const roll = random();
      if (roll < 0.33)
        made.push(
          world.quote(actor.id, target.id, `${pick(random, ON_TOPIC)} #${pick(random, hashtags)}`, at),
        );
      else if (roll < 0.66) made.push(world.reply(actor.id, target.id, pick(random, REPLIES), at));
      else if (target.authorId !== actor.id) world.repost(actor.id, target.id, at);
    }
  }

  // Outside engagement, in proportion to the author's reach, arrives as posts age.
  for (const post of made) {
    const reach = Math.sqrt((world.user(post.authorId)?.followers ?? 10) / 10);
    world.addPotential(post.id, {
      likes: Math.floor(random() * 12 * reach),
      replies: Math.floor(random() * 3 * reach),
      reposts: Math.floor(random() * 3 * reach),
      quotes: Math.floor(random() * 1.5 * reach),
    });
  }
  // Members engage with official posts, minutes to hours after them.
  for (const post of officialPosts) {
    for (const member of members) {
      const later = () => post.createdAt + intBetween(random, 60_000, 12 * HOUR_MS);
      if (random() < 0.15) world.like(member.id, post.id, later());
      if (random() < 0.04) world.reply(member.id, post.id, pick(random, REPLIES), later());
      if (random() < 0.05) world.repost(member.id, post.id, later());
    }
  }
  return { world, members, random, start };
}

function generateMembers(world: World, random: () => number, count: number, start: number): SimUser[] {
  const members: SimUser[] = [];
  for (let i = 0; members.length < count; i++) {
    const base = `${pick(random, FIRST_PARTS)}_${pick(random, LAST_PARTS)}`;
    const username = world.userByUsername(base) ? `${base.slice(0, 10)}${i % 100_000}` : base;
    if (world.userByUsername(username)) continue;
    members.push(
      world.createUser({
        username,
        name: username.replace('_', ' ').replace(/\b\w/g, (c) => c.toUpperCase()),
        createdAt: start - intBetween(random, 5, 2000) * DAY_MS,
        followers: Math.floor(10 ** (1 + random() * 3.5)),
        following: intBetween(random, 10, 900),
      }),
    );
  }
  return members;
}
