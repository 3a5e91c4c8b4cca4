import type { Db } from '../../db/schema';
import type { SocialAuthor } from '../../social/social-network';
import * as authors from './authors.repository';
import * as posts from './posts.repository';
import type { PostEvent } from './stream-events';

/**
 * Stores the posts of a batch that name the programme and are new, with their authors (a replayed or edited post
 * keeps its row and counts). An author the network could not describe yet keeps its stored profile, or is stored
 * under its id until the next refresh renames it. Returns the posts stored.
 */
export async function storeNewPosts(
  trx: Db,
  candidates: readonly PostEvent[],
  profileOf: ReadonlyMap<string, SocialAuthor>,
  now: Date,
): Promise<PostEvent[]> {
  if (candidates.length === 0) return [];
  const ids = candidates.map((p) => p.id);
  const known = new Set(
    (await trx.selectFrom('posts').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  );
  const fresh = [...new Map(candidates.filter((p) => !known.has(p.id)).map((p) => [p.id, p])).values()];
  if (fresh.length === 0) return [];
  const stored = new Map(
    (
      await trx
        .selectFrom('authors')
        .select(['id', 'handle', 'display_name', 'avatar_url'])
        .where(
          'id',
          'in',
          fresh.map((p) => p.authorId),
        )
        .execute()
    ).map((r) => [r.id, r]),
  );
  await authors.upsertAuthors(
    trx,
    fresh.map((p) => {
      const profile = profileOf.get(p.authorId);
      const row = stored.get(p.authorId);
      return {
        id: p.authorId,
        handle: profile?.handle ?? row?.handle ?? p.authorId,
        displayName: profile?.displayName ?? row?.display_name ?? p.authorId,
        avatarUrl: profile?.avatarUrl ?? row?.avatar_url ?? null,
        firstTrackedAt: p.createdAt,
      };
    }),
    now,
  );
  await posts.upsertPosts(
    trx,
    fresh.map((p) => ({
      id: p.id,
      authorId: p.authorId,
      text: p.text,
      createdAt: p.createdAt,
      kind: p.quotes ? ('quote' as const) : ('original' as const),
      likes: 0,
      replies: 0,
      reposts: 0,
      quotes: 0,
    })),
    now,
  );
  return fresh;
}
