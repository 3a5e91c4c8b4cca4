import type { SocialNetwork } from '../social/social-network';
import type { JobContext } from './job';

/** Pages of a member's likes read per check (newest first): likes older than that are not seen. */
const LIKE_PAGES = 3;

/**
 * The ids among `postIds` that a member has liked, read with the member's own token (X hides likers from
 * everyone else). Undefined when the member's likes cannot be read now (no token, or the network refused).
 */
export async function likedAmong(
  context: Pick<JobContext, 'memberToken' | 'log'> & { network: SocialNetwork },
  member: { accountId: string; networkUserId: string },
  postIds: ReadonlySet<string>,
): Promise<{ liked: Set<string>; calls: number } | undefined> {
  const token = await context.memberToken?.(member.accountId).catch(() => undefined);
  if (!token) return undefined;
  const liked = new Set<string>();
  let cursor: string | undefined;
  let calls = 0;
  try {
    do {
      const page = await context.network.likedBy(member.networkUserId, token, cursor);
      calls++;
      for (const post of page.posts) if (postIds.has(post.id)) liked.add(post.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && calls < LIKE_PAGES);
  } catch (error) {
    context.log.warn({ err: error, accountId: member.accountId }, "could not read a member's likes");
    return undefined;
  }
  return { liked, calls };
}
