import type { Db } from '../../db/schema';

/**
 * What the stream's in-memory filter starts from (social/stream-interest.ts): the posts whose records still count
 * (tracked posts not final yet, official posts not deleted) and every account whose deletion or identity change can
 * matter (tracked authors, authors of counted records, official authors, linked members).
 */
export async function readInterest(db: Db): Promise<{ tracked: string[]; people: string[] }> {
  const [posts, officials, authors, recordAuthors, members] = await Promise.all([
    db.selectFrom('posts').select('id').where('final', '=', false).execute(),
    db.selectFrom('official_posts').select(['id', 'author_id']).where('deleted', '=', false).execute(),
    db.selectFrom('authors').select('id').execute(),
    db.selectFrom('stream_records').select('author_id').distinct().execute(),
    db.selectFrom('accounts').select('network_user_id').execute(),
  ]);
  return {
    tracked: [...posts.map((r) => r.id), ...officials.map((r) => r.id)],
    people: [
      ...authors.map((r) => r.id),
      ...officials.map((r) => r.author_id),
      ...recordAuthors.map((r) => r.author_id),
      ...members.map((r) => r.network_user_id),
    ],
  };
}
