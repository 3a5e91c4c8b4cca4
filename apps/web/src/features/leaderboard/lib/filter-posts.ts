import { POST_SEARCH_CUT } from '../../../config/constants';

type Searchable = { content: string; authorName: string };

/**
 * SPEC §5: when some returned posts do not match the search, the list is filtered client-side by content or
 * author name (case-insensitive) and cut to 20. Without a search, or when all match, it is kept as sent.
 */
export function filterPosts<P extends Searchable>(posts: readonly P[], search: string): P[] {
  const needle = search.toLowerCase();
  if (!needle) return [...posts];
  const matches = (post: P) =>
    post.content.toLowerCase().includes(needle) || post.authorName.toLowerCase().includes(needle);
  if (posts.every(matches)) return [...posts];
  return posts.filter(matches).slice(0, POST_SEARCH_CUT);
}

/** The status id of a post URL (`…/status/{id}`), or null: posts without one are skipped (SPEC §3). */
export function statusIdOf(url: string): string | null {
  return /\/status(?:es)?\/(\d+)/.exec(url)?.[1] ?? null;
}
