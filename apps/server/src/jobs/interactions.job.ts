import { readState } from '../modules/mana/ingest-state.repository';
import {
  anyLinkedMember,
  membersSharingLikes,
  recordInteractions,
  recordOfficialPosts,
  watchedOfficialPosts,
  type FoundInteraction,
} from '../modules/mana/interactions.service';
import { compareIds } from '../modules/mana/scoring';
import { activeRules, officialPostsQuery } from '../modules/programme/programme.service';
import type { SocialNetwork } from '../social/social-network';
import { DAY_MS, SEARCH_REACH_MARGIN_MS, type Job } from './job';
import { likedAmong } from './member-likes';

/** Pages read per list and run: an official post with more reposts than this is read over several runs. */
const PAGES_PER_LIST = 10;

type InteractionsCursor = { sinceId?: string; sinceAt?: string };

/** Every page of a list, up to PAGES_PER_LIST; returns the items and the calls spent. */
async function allPages<T>(
  fetch: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<{ items: T[]; calls: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const page = await fetch(cursor);
    calls++;
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && calls < PAGES_PER_LIST);
  return { items, calls };
}

/** Reposts, direct replies and (where the network shows them publicly) likes of one official post. */
export async function engagementOf(network: SocialNetwork, postId: string) {
  const reposts = await allPages(async (cursor) => {
    const page = await network.repostsOf(postId, cursor);
    return { items: page.authors, nextCursor: page.nextCursor };
  });
  const replies = await allPages(async (cursor) => {
    const page = await network.findPosts({ type: 'repliesTo', postId }, cursor ? { cursor } : {});
    return { items: page.posts, nextCursor: page.nextCursor };
  });
  // Where likes are public, who liked the post is read like who reposted it (no member token needed).
  const likersOf = network.likersOf?.bind(network);
  const likes = likersOf
    ? await allPages(async (cursor) => {
        const page = await likersOf(postId, cursor);
        return { items: page.authors, nextCursor: page.nextCursor };
      })
    : { items: [], calls: 0 };
  const found: FoundInteraction[] = [
    ...reposts.items.map((a) => ({ memberId: a.networkUserId, postId, kind: 'repost' as const })),
    ...replies.items
      .filter((p) => p.kind === 'reply' && p.referencedPostId === postId)
      .map((p) => ({ memberId: p.authorId, postId, kind: 'reply' as const })),
    ...likes.items.map((a) => ({ memberId: a.networkUserId, postId, kind: 'like' as const })),
  ];
  return { found, calls: reposts.calls + replies.calls + likes.calls };
}

/**
 * interactions: the official accounts' recent posts (their own search, paged with since_id), then who reposted
 * or replied to each post of the refresh window, and which of those posts each member liked (read with the
 * member's own token); linked members get a pending line, unique per member × post × kind. Without any linked member nothing is read (X bills per read).
 */
export const interactionsJob: Job = {
  name: 'interactions',
  async run(context) {
    const { db, network, clock } = context;
    const now = () => new Date(clock.now());
    if (!(await anyLinkedMember(db))) return { calls: 0, counts: { watched: 0, detected: 0 } };
    const { rules } = await activeRules(db);
    const stored = ((await readState(db, 'interactions'))?.cursor ?? {}) as InteractionsCursor;
    const reachable =
      stored.sinceAt &&
      clock.now() - Date.parse(stored.sinceAt) < network.searchReachMs - SEARCH_REACH_MARGIN_MS;
    let calls = 0;
    let cursor: string | undefined;
    let newest = reachable ? { id: stored.sinceId ?? '', at: stored.sinceAt ?? '' } : undefined;
    do {
      const page = await network.findPosts(officialPostsQuery(rules), {
        ...(reachable && stored.sinceId ? { sinceId: stored.sinceId } : {}),
        ...(cursor ? { cursor } : {}),
      });
      calls++;
      for (const post of page.posts) {
        if (!newest || compareIds(post.id, newest.id) > 0)
          newest = { id: post.id, at: post.createdAt.toISOString() };
      }
      cursor = page.nextCursor ?? undefined;
      // since_id moves only with the last page, like the search job.
      const value: InteractionsCursor =
        cursor || !newest ? stored : { sinceId: newest.id, sinceAt: newest.at };
      await recordOfficialPosts(db, page.posts, { job: 'interactions', value }, now());
    } while (cursor && calls < PAGES_PER_LIST);

    let detected = 0;
    const watched = await watchedOfficialPosts(db, new Date(clock.now() - rules.refreshWindowDays * DAY_MS));
    for (const post of watched) {
      const { found, calls: spent } = await engagementOf(network, post.id);
      calls += spent;
      detected += await recordInteractions(db, rules, found, now());
    }
    // Likes: only each member can read their own, with their token.
    const watchedIds = new Set(watched.map((p) => p.id));
    if (context.memberToken && watchedIds.size > 0) {
      for (const member of await membersSharingLikes(db)) {
        const result = await likedAmong({ ...context, network }, member, watchedIds);
        if (!result) continue;
        calls += result.calls;
        const found = [...result.liked].map((postId) => ({
          memberId: member.networkUserId,
          postId,
          kind: 'like' as const,
        }));
        detected += await recordInteractions(db, rules, found, now());
      }
    }
    return { calls, counts: { watched: watched.length, detected } };
  },
};
