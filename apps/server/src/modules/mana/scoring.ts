import { DAY_MS } from '../../lib/time';

/**
 * Mana arithmetic (DESIGN §4) as pure functions: the worker and the API share them, and every number comes
 * from the programme rules passed in, never from a constant here.
 */

export type EngagementWeights = { like: number; reply: number; repost: number; quote: number };
export type Engagement = { likes: number; replies: number; reposts: number; quotes: number };

/** Post Mana = multiplier × (w·likes + w·replies + w·reposts + w·quotes). */
export function postMana(engagement: Engagement, weights: EngagementWeights, multiplier: number): number {
  const base =
    weights.like * engagement.likes +
    weights.reply * engagement.replies +
    weights.repost * engagement.reposts +
    weights.quote * engagement.quotes;
  return multiplier * base;
}

/** The multiplier of a post: linked authors earn more from the moment they linked (posts after that time). */
export function multiplierFor(postCreatedAt: Date, linkedAt: Date | null, linkedMultiplier: number): number {
  return linkedAt !== null && postCreatedAt.getTime() >= linkedAt.getTime() ? linkedMultiplier : 1;
}

/** The UTC day of an instant, as 'YYYY-MM-DD'. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** When the UTC day containing `at` ends (the daily limit resets then). */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

/**
 * Daily-limit selection: of one author's tracked posts, only the first `dailyLimit` of each UTC day earn Mana
 * (by creation time, then id). Returns the ids of posts over the limit.
 */
export function overDailyLimit(
  posts: ReadonlyArray<{ id: string; createdAt: Date }>,
  dailyLimit: number,
): Set<string> {
  const byDay = new Map<string, Array<{ id: string; createdAt: Date }>>();
  for (const post of posts) {
    const day = utcDay(post.createdAt);
    const list = byDay.get(day) ?? [];
    list.push(post);
    byDay.set(day, list);
  }
  const over = new Set<string>();
  for (const list of byDay.values()) {
    list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a.id, b.id));
    for (const post of list.slice(Math.max(dailyLimit, 0))) over.add(post.id);
  }
  return over;
}

/** Numeric ids (X snowflakes) compare by length first, so '9' < '10'. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Start of the ISO week (Monday 00:00 UTC) containing `at`. */
export function isoWeekStart(at: Date): Date {
  const dayStart = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const weekday = (new Date(dayStart).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return new Date(dayStart - weekday * DAY_MS);
}

/** The ledger key of a period: 'all', or the ISO week's Monday as 'YYYY-MM-DD'. */
export function weekKey(at: Date): string {
  return utcDay(isoWeekStart(at));
}

/**
 * `weekKey` of a time in ms, kept with the instants its week runs between: the key changes once a week, where a Date
 * and an ISO string made for each weekly read of the board were over 1 % of a cached read's time (issue 23). Time
 * may also move back (tests, simulated clocks).
 */
export function weekKeyMemo(): (now: number) => string {
  let week = { key: '', from: Infinity, until: -Infinity };
  return (now) => {
    if (now < week.from || now >= week.until) {
      const from = isoWeekStart(new Date(now)).getTime();
      week = { key: weekKey(new Date(now)), from, until: from + 7 * DAY_MS };
    }
    return week.key;
  };
}

export type ScoringRules = { weights: EngagementWeights; linkedMultiplier: number; dailyLimit: number };

/** A tracked post as the scorer sees it. `fixed` posts are final and keep the Mana already given. */
export type ScorablePost = Engagement & {
  id: string;
  createdAt: Date;
  live: boolean;
  fixed: boolean;
  mana: number;
  overLimit: boolean;
  multiplier: number;
};

export type ScoredPost = { id: string; mana: number; overLimit: boolean; multiplier: number };

/**
 * Scores one author's tracked posts: the daily limit over all of them (a deleted post keeps its slot, so
 * deleting does not free one), the multiplier from the moment of linking, 0 Mana for posts over the limit or no
 * longer live. Fixed posts come back unchanged.
 */
export function scoreAuthorPosts(
  posts: readonly ScorablePost[],
  rules: ScoringRules,
  linkedAt: Date | null,
): ScoredPost[] {
  const over = overDailyLimit(posts, rules.dailyLimit);
  return posts.map((post) => {
    if (post.fixed) {
      return { id: post.id, mana: post.mana, overLimit: post.overLimit, multiplier: post.multiplier };
    }
    const overLimit = over.has(post.id);
    const multiplier = multiplierFor(post.createdAt, linkedAt, rules.linkedMultiplier);
    const mana = post.live && !overLimit ? postMana(post, rules.weights, multiplier) : 0;
    return { id: post.id, mana, overLimit, multiplier };
  });
}

export type PeriodTotals = Engagement & { mana: number; posts: number };

/**
 * An author's totals per period ('all' and each ISO week with a post), summed from the post lines. Engagement
 * and post counts cover live posts; Mana is the sum of the lines (over-limit lines are 0).
 */
export function periodTotals(
  posts: ReadonlyArray<Engagement & { createdAt: Date; live: boolean; mana: number }>,
): Map<string, PeriodTotals> {
  const totals = new Map<string, PeriodTotals>();
  const add = (key: string, post: (typeof posts)[number]) => {
    const t = totals.get(key) ?? { mana: 0, posts: 0, likes: 0, replies: 0, reposts: 0, quotes: 0 };
    t.mana += post.mana;
    if (post.live) {
      t.posts += 1;
      t.likes += post.likes;
      t.replies += post.replies;
      t.reposts += post.reposts;
      t.quotes += post.quotes;
    }
    totals.set(key, t);
  };
  for (const post of posts) {
    add('all', post);
    add(weekKey(post.createdAt), post);
  }
  return totals;
}

/** Adds ledger lines that are not posts (referrals, interactions) to an author's period totals. */
export function addBonusLines(
  totals: Map<string, PeriodTotals>,
  lines: ReadonlyArray<{ mana: number; at: Date }>,
): Map<string, PeriodTotals> {
  for (const line of lines) {
    for (const key of ['all', weekKey(line.at)]) {
      const t = totals.get(key) ?? { mana: 0, posts: 0, likes: 0, replies: 0, reposts: 0, quotes: 0 };
      t.mana += line.mana;
      totals.set(key, t);
    }
  }
  return totals;
}
