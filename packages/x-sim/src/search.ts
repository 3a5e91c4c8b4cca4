import { afterTime, lowerBound } from './post-index';
import type { QueryNode } from './query';
import { compileQuery } from './query-match';
import { candidates } from './query-plan';
import { compareIds } from './snowflake';
import type { World } from './world';
import type { SimPost } from './world-types';

/** Bounds of one page of recent search, as X defines them. */
export type SearchWindow = {
  /** Only posts created at or after this (the 7-day floor or start_time). */
  startTime: number;
  /** Only posts created before this (end_time, exclusive; otherwise just after now). */
  endBefore: number;
  /** Only ids above this one (since_id, exclusive). */
  sinceId?: string;
  /** Only ids below this one (until_id or the page token, exclusive). */
  beforeId?: string;
  max: number;
};

/**
 * One page of recent search, newest first: walks the smallest index list that can hold the matches from the
 * page's upper bound down, and stops at the page size (looking one match further to know whether there is
 * a next page), at the lower time bound or at since_id.
 */
export function searchRecent(world: World, ast: QueryNode, window: SearchWindow) {
  const test = compileQuery(ast);
  const list =
    candidates(ast, { index: world.index, userIdOf: (name) => world.userByUsername(name)?.id }) ??
    world.index.all();
  let i = afterTime(list, window.endBefore - 1);
  if (window.beforeId !== undefined) i = Math.min(i, lowerBound(list, window.beforeId));
  const posts: SimPost[] = [];
  let more = false;
  for (i -= 1; i >= 0; i--) {
    const post = list[i] as SimPost;
    if (post.createdAt < window.startTime) break;
    if (window.sinceId !== undefined && compareIds(post.id, window.sinceId) <= 0) break;
    if (!world.isVisible(post)) continue;
    const author = world.user(post.authorId) as NonNullable<ReturnType<World['user']>>;
    const matched = test({
      terms: world.index.termsOf(post),
      authorUsername: author.username,
      authorId: author.id,
      conversationId: post.conversationId,
      refType: post.ref?.type ?? null,
    });
    if (!matched) continue;
    if (posts.length === window.max) {
      more = true;
      break;
    }
    posts.push(post);
  }
  return { posts, more };
}
