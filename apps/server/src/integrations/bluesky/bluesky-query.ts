import type { PostQuery, QueryPreview } from '../../social/social-network';

/**
 * What a query means on Bluesky: no search is sent, the event stream's posts are filtered by the same terms in
 * the worker, so nothing limits its length.
 */
export function describeBlueskyQuery(query: PostQuery): QueryPreview {
  switch (query.type) {
    case 'matching': {
      const terms = [
        ...query.keywords,
        ...query.hashtags.map((tag) => `#${tag.replace(/^#/, '')}`),
        ...query.mentions.map((handle) => `@${handle.replace(/^@/, '')}`),
      ];
      return { text: `stream posts naming ${terms.join(' OR ')}`, maxLength: null };
    }
    case 'postsOf':
      return {
        text: `stream posts by ${query.handles.map((h) => `@${h.replace(/^@/, '')}`).join(' OR ')}`,
        maxLength: null,
      };
    case 'repliesTo':
      return { text: `thread of ${query.postId}`, maxLength: null };
  }
}
