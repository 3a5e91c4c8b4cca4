/**
 * The verifier's own Mana arithmetic, written from docs/ledger-format.md ("How a reader recomputes the Mana") and
 * never imported from the server: a difference between the two is a bug in one of them, which a property test
 * (apps/server/src/modules/mana/verifier-agreement.test.ts) hunts for.
 */

export type Counts = { likes: number; quotes: number; replies: number; reposts: number };
export type Weights = { like: number; quote: number; reply: number; repost: number };

/** Ids compare shorter first, then by UTF-16 code units (so the X id '9' comes before '10'). */
export function idOrder(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return codeUnitOrder(a, b);
}

/** Plain UTF-16 code unit order (JavaScript's string comparison). */
export function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A post's Mana: 0 over the daily limit or when not live, else multiplier × the weighted counts. */
export function manaOfPost(post: {
  counts: Counts;
  weights: Weights;
  multiplier: number;
  overDailyLimit: boolean;
  live: boolean;
}): number {
  if (post.overDailyLimit || !post.live) return 0;
  const { counts: c, weights: w } = post;
  return (
    post.multiplier * (w.like * c.likes + w.reply * c.replies + w.repost * c.reposts + w.quote * c.quotes)
  );
}

export type DayPost = { post: string; createdAt: string; dailyLimit: number };

/**
 * Which of one author's posts are over the daily limit: per UTC day, the posts in (createdAt, id) order from
 * position `dailyLimit` on (each post's limit is that of its own rules). Returns their ids.
 */
export function postsOverDailyLimit(posts: readonly DayPost[]): Set<string> {
  const byDay = new Map<string, DayPost[]>();
  for (const post of posts) {
    const day = post.createdAt.slice(0, 10);
    let list = byDay.get(day);
    if (!list) byDay.set(day, (list = []));
    list.push(post);
  }
  const over = new Set<string>();
  for (const list of byDay.values()) {
    list.sort((a, b) => codeUnitOrder(a.createdAt, b.createdAt) || idOrder(a.post, b.post));
    list.forEach((post, position) => {
      if (position >= Math.max(post.dailyLimit, 0)) over.add(post.post);
    });
  }
  return over;
}

export type Standing = { author: string; mana: number; firstTrackedAt: string };

/** The board's order: more Mana first, then the earlier first tracked post, then the author by code units. */
export function standingOrder(a: Standing, b: Standing): number {
  return (
    b.mana - a.mana || codeUnitOrder(a.firstTrackedAt, b.firstTrackedAt) || codeUnitOrder(a.author, b.author)
  );
}

/** Ranks 1…n in the board's order, by author. */
export function ranksOf(standings: readonly Standing[]): Map<string, number> {
  const sorted = [...standings].sort(standingOrder);
  return new Map(sorted.map((s, i) => [s.author, i + 1]));
}
