import type { ProgrammeRules } from '@manaboard/contract';

export type Counts = { likes: number; replies: number; reposts: number; quotes: number };

/**
 * The seeded world as the test itself tallies it: who wrote which tracked post and every like, reply, repost and
 * quote it got, and the linked members' interactions with official posts. The expected Mana is computed from
 * this and the programme's rules, never read back from the engine.
 */
export class Tally {
  readonly posts = new Map<string, { author: string; counts: Counts; linked: boolean; deleted: boolean }>();
  readonly interactions: Array<{ member: string; kind: 'like' | 'reply' | 'repost' }> = [];
  /** Posts that are not tracked but whose counts the AppView must show before a reconcile (official posts). */
  readonly untracked = new Map<string, Counts>();

  track(uri: string, author: string, linked = false) {
    this.posts.set(uri, {
      author,
      counts: { likes: 0, replies: 0, reposts: 0, quotes: 0 },
      linked,
      deleted: false,
    });
  }

  add(uri: string, metric: keyof Counts, by = 1) {
    const post = this.posts.get(uri);
    if (post) post.counts[metric] += by;
  }

  /** Mana per author handle: Σ multiplier × weighted counts of live posts, plus credited interactions. */
  expected(rules: ProgrammeRules, withInteractions: boolean): Map<string, number> {
    const mana = new Map<string, number>();
    const w = rules.weights;
    for (const post of this.posts.values()) {
      const c = post.counts;
      const value = post.deleted
        ? 0
        : (post.linked ? rules.linkedMultiplier : 1) *
          (c.likes * w.like + c.replies * w.reply + c.reposts * w.repost + c.quotes * w.quote);
      mana.set(post.author, (mana.get(post.author) ?? 0) + value);
    }
    if (withInteractions) {
      for (const i of this.interactions)
        mana.set(i.member, (mana.get(i.member) ?? 0) + rules.interactionRewards[i.kind]);
    }
    return mana;
  }
}
