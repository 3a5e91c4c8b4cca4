import fs from 'node:fs/promises';
import path from 'node:path';
import type { SeedClient } from '@atproto/dev-env';
import { paths } from '../../src/config/config';

type Did = `did:${string}:${string}`;
type Ref = Awaited<ReturnType<SeedClient['post']>>['ref'];

export type DemoAccount = { name: string; handle: string; did: Did; password: string };

/** The demo's official account: its posts earn linked members interaction Mana (like, reply, repost). */
export const OFFICIAL = { name: 'manaboard', displayName: 'Manaboard' } as const;

/** The demo's members (all `{name}.test` on the local PDS), posting with the programme's hashtags. */
const MEMBERS = [
  ['ada', 'Ada Lovelace'],
  ['grace', 'Grace Hopper'],
  ['alan', 'Alan Turing'],
  ['margaret', 'Margaret Hamilton'],
  ['dennis', 'Dennis Ritchie'],
  ['katherine', 'Katherine Johnson'],
  ['linus', 'Linus'],
  ['barbara', 'Barbara Liskov'],
] as const;

/** Newcomers: accounts that only exist to be linked by a person trying the demo. */
const NEWCOMERS = ['alice', 'bob'] as const;

const TEXTS = [
  'Shipped the first draft of my talk #ManaBoard',
  'Three bugs fixed before lunch #EarnMana',
  'Pair programming with a rubber duck today #ManaBoard',
  'Reading the AT Protocol spec over coffee #ManaBoard',
  'Our meetup is on Thursday, come along #EarnMana',
  'Wrote the tests first, felt good #ManaBoard',
  'A tiny refactor, a big relief #EarnMana',
  'Who else is climbing the board this week? #ManaBoard',
  'Notes on the analytical engine, part two #ManaBoard',
  'Found an actual bug in the relay today #EarnMana',
];
const REPLIES = ['Agreed!', 'Love this', 'Great work', 'Same here', 'Congrats!'];

const passwordOf = (name: string) => `${name}-demo-pass`;

/**
 * The living world of `npm run demo:bluesky` on a local AT Protocol network: an official account, members with
 * profiles who follow each other, and newcomers to link. `start` adds a few actions every so often (a post with
 * the programme's hashtag, a like, a repost, a reply), as the simulated X's world does on X.
 */
export class DemoWorld {
  readonly official: DemoAccount;
  readonly members: DemoAccount[];
  readonly newcomers: DemoAccount[];
  private readonly posts: Ref[] = [];
  private readonly officialPosts: Ref[] = [];
  /** Likes and reposts made, as `kind did uri`. */
  private readonly done = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private step = 0;
  private running: Promise<void> = Promise.resolve();

  /** Told of an action that failed (printed by the demo as one line). */
  onError: (error: unknown) => void = () => undefined;

  private constructor(
    private readonly seed: SeedClient,
    accounts: { official: DemoAccount; members: DemoAccount[]; newcomers: DemoAccount[] },
  ) {
    this.official = accounts.official;
    this.members = accounts.members;
    this.newcomers = accounts.newcomers;
  }

  /** Creates the accounts and their profiles (old enough, as real members' accounts are). */
  static async create(seed: SeedClient): Promise<DemoWorld> {
    const make = async (name: string, displayName: string, avatar?: Buffer): Promise<DemoAccount> => {
      const handle = `${name}.test` as const;
      const password = passwordOf(name);
      const { did } = await seed.createAccount(name, { handle, email: `${name}@example.test`, password });
      const headers = seed.getHeaders(did as Did);
      const blob = avatar
        ? (await seed.agent.com.atproto.repo.uploadBlob(avatar, { encoding: 'image/jpeg', headers })).data
            .blob
        : undefined;
      await seed.agent.app.bsky.actor.profile.create(
        { repo: did },
        { displayName, ...(blob ? { avatar: blob } : {}), createdAt: new Date().toISOString() },
        headers,
      );
      return { name, handle, did: did as Did, password };
    };
    const logo = await fs.readFile(path.join(paths.repoRoot, 'apps/web/public/brand/og-image.jpg'));
    const official = await make(OFFICIAL.name, OFFICIAL.displayName, logo);
    const members: DemoAccount[] = [];
    for (const [name, displayName] of MEMBERS) members.push(await make(name, displayName));
    const newcomers: DemoAccount[] = [];
    for (const name of NEWCOMERS) newcomers.push(await make(name, name === 'alice' ? 'Alice' : 'Bob'));
    for (const a of members) {
      await seed.follow(a.did, official.did);
      for (const b of members) if (a !== b) await seed.follow(a.did, b.did);
    }
    return new DemoWorld(seed, { official, members, newcomers });
  }

  /** The first hour's worth at once: a welcome from the official account, a post per member and reactions. */
  async opening(): Promise<void> {
    this.officialPosts.push(
      (
        await this.seed.post(
          this.official.did,
          'Welcome to the programme! Post with #ManaBoard to earn Mana.',
        )
      ).ref,
    );
    for (const [i, m] of this.members.entries()) {
      this.posts.push((await this.seed.post(m.did, TEXTS[i % TEXTS.length] ?? '#ManaBoard')).ref);
    }
    for (let i = 0; i < this.members.length * 2; i++) await this.act();
  }

  /** Keeps the world moving: `everySeconds` between actions, until stop. */
  start(everySeconds: number): void {
    this.timer = setInterval(() => {
      // One action at a time; one that fails (the network stopping) is told, and the next one tries again.
      this.running = this.running.then(() => this.act()).catch((error: unknown) => this.onError(error));
    }, everySeconds * 1000);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One action, in a fixed rotation (post, like, like, repost, like, reply) by members in turn. */
  private async act(): Promise<void> {
    const n = this.step++;
    const who = this.members[(n * 5) % this.members.length] as DemoAccount;
    const kind = ['post', 'like', 'like', 'repost', 'like', 'reply'][n % 6] ?? 'post';
    // Another member's post (or the official's), not yet liked or reposted by this member: one of each per post.
    const targets = [...this.posts, ...this.officialPosts].filter(
      (p) => p.uri.host !== who.did && !this.done.has(`${kind} ${who.did} ${p.uri.toString()}`),
    );
    const target = targets[(n * 7) % Math.max(targets.length, 1)];
    if (kind === 'post' || !target) {
      this.posts.push((await this.seed.post(who.did, TEXTS[n % TEXTS.length] ?? '#ManaBoard')).ref);
      return;
    }
    if (kind !== 'reply') this.done.add(`${kind} ${who.did} ${target.uri.toString()}`);
    if (kind === 'like') await this.seed.like(who.did, target);
    else if (kind === 'repost') await this.seed.repost(who.did, target);
    else await this.seed.reply(who.did, target, target, REPLIES[n % REPLIES.length] ?? 'Nice');
  }
}
