import { useQuery } from '@tanstack/react-query';
import { publicConfigQueryOptions } from '../../../lib/public-config';
import { postEmbedFor } from '../../../networks/post-embed';
import { usePosts } from '../api/get-posts';
import type { BoardFilter } from '../../../lib/leaderboard-keys';
import { statusIdOf } from '../lib/filter-posts';
import { leaderboardErrorText } from '../../../lib/board-error';
import { BoardEmpty, BoardError, BoardSpinner } from './board-status';
import { PostCard } from './post-card';

/**
 * The Posts tab (SPEC §2): tracked posts in a grid of 1, 2 or 3 columns by width. On a real network with an
 * embed script each post is the network's own embed; otherwise (the simulation, or until the config is known)
 * our card. Posts whose URL names no
 * status id are skipped (SPEC §3).
 */
export function PostsGrid({ filter }: { filter: BoardFilter }) {
  const posts = usePosts(filter);
  const config = useQuery(publicConfigQueryOptions());
  const Embed = postEmbedFor(config.data?.data);

  if (posts.isPending) return <BoardSpinner label="Loading posts" />;
  if (posts.isError) return <BoardError text={leaderboardErrorText(posts.error, 'posts')} />;
  const shown = posts.data.flatMap((post) => {
    const statusId = statusIdOf(post.url);
    return statusId ? [{ post, statusId }] : [];
  });
  if (shown.length === 0) return <BoardEmpty kind="posts" search={filter.search} />;
  return (
    <ul data-testid="posts-grid" className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      {shown.map(({ post, statusId }) => (
        <li key={post.id}>
          {Embed ? (
            <Embed post={post} statusId={statusId} fallback={<PostCard post={post} />} />
          ) : (
            <PostCard post={post} />
          )}
        </li>
      ))}
    </ul>
  );
}
