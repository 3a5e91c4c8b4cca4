// What the distinct-traffic stream plants for the programme (issue 31), and what the app must end up with: posts
// naming it (its hashtag with a tag facet, a mention of the official account, or its keyword in the text) and the
// official account's own posts, each with likes, reposts, replies and quotes by accounts never seen before; a share
// of the likes arrive before their post (events of different repositories come in no causal order), and a share of
// likes and reposts are taken back later (a delete). The plan is made once, from the seed, before any frame is
// built; the bench checks the app's stored counts against `expected` exactly.
import { seededRandom } from './firehose-records';
import { accountOf, didOf, microsAt, OFFICIAL_INDEX, tid, type DistinctParams } from './distinct-traffic';

export type Naming = 'tag' | 'mention' | 'keyword';
export type Planted =
  | { type: 'post'; naming: Naming | 'official' }
  | { type: 'like' | 'repost' | 'reply' | 'quote'; post: number }
  | { type: 'unlike' | 'unrepost'; post: number; record: number };

export type PlantedCounts = { likes: number; reposts: number; replies: number; quotes: number };

export type PlantedPlan = {
  /** Frame index → the planted event it carries. */
  at: Map<number, Planted>;
  /** Each planted post's URI → the counts the app must store (after the deletes). */
  expected: Record<string, PlantedCounts & { official: boolean }>;
  /** Likes placed before their post in the stream. */
  early: number;
};

/** Planted accounts are numbered apart from the stream's own (frame numbers), so each is new where it appears. */
export const PLANTED_BASE = 0x80000000;

/** The author of the planted event at frame i (the official account for its posts, else a new account). */
export function plantedAuthor(planted: Planted, i: number): number {
  if (planted.type === 'post' && planted.naming === 'official') return OFFICIAL_INDEX;
  // A like or repost is taken back by its own account.
  if (planted.type === 'unlike' || planted.type === 'unrepost') return PLANTED_BASE + planted.record;
  return PLANTED_BASE + i;
}

/** The record key of the create at frame i, op k (every create of the stream uses its frame's time). */
export const createKey = (p: DistinctParams, start: number, i: number, k = 0) =>
  tid(microsAt(p, start, i) + k, i & 1023);

export function plantedPostUri(p: DistinctParams, start: number, plan: PlantedPlan, frame: number): string {
  const planted = plan.at.get(frame);
  if (planted?.type !== 'post') throw new Error(`no planted post at frame ${frame}`);
  return `at://${didOf(p.seed, plantedAuthor(planted, frame))}/app.bsky.feed.post/${createKey(p, start, frame)}`;
}

export function plantedRecordUri(p: DistinctParams, start: number, plan: PlantedPlan, frame: number): string {
  const planted = plan.at.get(frame);
  const collection = planted?.type === 'repost' ? 'app.bsky.feed.repost' : 'app.bsky.feed.like';
  return `at://${didOf(p.seed, PLANTED_BASE + frame)}/${collection}/${createKey(p, start, frame)}`;
}

const FIELD = { like: 'likes', repost: 'reposts', reply: 'replies', quote: 'quotes' } as const;

/** A count drawn around `mean` (a geometric law: most posts get few, some many). */
const countAround = (random: () => number, mean: number) => Math.floor(-Math.log(1 - random()) * mean);

export function planProgramme(p: DistinctParams, start: number): PlantedPlan {
  const random = seededRandom(p.seed ^ 0x5eed);
  const at = new Map<number, Planted>();
  const place = (want: number, planted: Planted): number | null => {
    for (let i = Math.max(0, want); i < p.frames; i++) {
      if (at.has(i)) continue;
      at.set(i, planted);
      return i;
    }
    return null;
  };
  const posts: Array<{ frame: number; official: boolean }> = [];
  for (let n = 0; n < p.officialPosts; n++) {
    const frame = place(Math.floor(random() * p.frames * 0.2), { type: 'post', naming: 'official' });
    if (frame !== null) posts.push({ frame, official: true });
  }
  const namings: Naming[] = ['tag', 'tag', 'mention', 'keyword'];
  for (let n = 0; n < p.programmePosts; n++) {
    const naming = namings[n % namings.length] ?? 'tag';
    const frame = place(Math.floor(random() * p.frames * 0.95), { type: 'post', naming });
    if (frame !== null) posts.push({ frame, official: false });
  }
  const expected: PlantedPlan['expected'] = {};
  let early = 0;
  for (const post of posts) {
    const counts = { likes: 0, reposts: 0, replies: 0, quotes: 0, official: post.official };
    const edges: Array<['like' | 'repost' | 'reply' | 'quote', number]> = [
      ['like', countAround(random, post.official ? 20 : 8)],
      ['repost', countAround(random, 2)],
      ['reply', countAround(random, 1)],
      ['quote', countAround(random, 0.5)],
    ];
    for (const [type, count] of edges) {
      for (let n = 0; n < count; n++) {
        // 5 % of likes before their post (up to 2 s of network time), the rest over the minutes after it.
        const before = type === 'like' && random() < 0.05;
        const want = before
          ? post.frame - 1 - Math.floor(random() * 3_000)
          : post.frame + 1 + countAround(random, 30_000);
        if (want >= p.frames) continue;
        const frame = place(want, { type, post: post.frame });
        if (frame === null) continue;
        if (frame < post.frame) early++;
        counts[FIELD[type]]++;
        // 5 % of the likes and reposts that came after their post are taken back later.
        if ((type === 'like' || type === 'repost') && frame > post.frame && random() < 0.05) {
          const undo = place(frame + 1 + countAround(random, 20_000), {
            type: type === 'like' ? 'unlike' : 'unrepost',
            post: post.frame,
            record: frame,
          });
          if (undo !== null) counts[FIELD[type]]--;
        }
      }
    }
    const planned = { at, expected, early };
    expected[plantedPostUri(p, start, planned, post.frame)] = counts;
  }
  return { at, expected, early };
}

/** The stream's own accounts that planted frames do not use (for the check of distinct accounts). */
export function streamAccountOf(p: DistinctParams, plan: PlantedPlan, i: number): number | null {
  return plan.at.has(i) ? null : accountOf(p, i);
}
