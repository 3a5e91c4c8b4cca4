// After a run of the distinct-traffic bench: opens the app's embedded database (the app stopped: one owner at a
// time) and compares what it stored with what the stream planted, exactly: each programme post's likes, reposts,
// replies and quotes (after the deletes), each official post's counted likes and reposts, and nothing else stored
// (no post, record or author that concerns nobody).
import { openDatabase, type DatabaseOptions } from '../../apps/server/src/db/database';
import type { DistinctMeta } from './distinct-stream';

export type DistinctCheck = {
  posts: { expected: number; stored: number; exact: number };
  official: { expected: number; exact: number };
  /** Planted likes and reposts the app should count, and how many it did (programme and official posts). */
  likes: { expected: number; counted: number };
  reposts: { expected: number; counted: number };
  /** Stored rows about no planted post (must be 0). */
  strays: number;
  wrong: string[];
};

export async function checkDistinctRun(
  /** The app's data directory (its embedded database), or a database to open (the faults bench's PostgreSQL). */
  where: string | DatabaseOptions,
  meta: DistinctMeta,
): Promise<DistinctCheck> {
  const handle = await openDatabase(typeof where === 'string' ? { kind: 'pglite', dataDir: where } : where);
  try {
    const db = handle.db;
    const posts = await db
      .selectFrom('posts')
      .select(['id', 'likes', 'reposts', 'replies', 'quotes'])
      .execute();
    const records = await db
      .selectFrom('stream_records')
      .select(['subject_id', 'kind', (eb) => eb.fn.countAll<string>().as('n')])
      .where('state', '=', 'counted')
      .groupBy(['subject_id', 'kind'])
      .execute();
    const countOf = (subject: string, kind: string) =>
      Number(records.find((r) => r.subject_id === subject && r.kind === kind)?.n ?? 0);
    const result: DistinctCheck = {
      posts: { expected: 0, stored: posts.length, exact: 0 },
      official: { expected: 0, exact: 0 },
      likes: { expected: 0, counted: 0 },
      reposts: { expected: 0, counted: 0 },
      strays: 0,
      wrong: [],
    };
    const byId = new Map(posts.map((p) => [p.id, p]));
    for (const [uri, want] of Object.entries(meta.expected)) {
      result.likes.expected += want.likes;
      result.reposts.expected += want.reposts;
      if (want.official) {
        result.official.expected++;
        const got = { likes: countOf(uri, 'like'), reposts: countOf(uri, 'repost') };
        result.likes.counted += got.likes;
        result.reposts.counted += got.reposts;
        if (got.likes === want.likes && got.reposts === want.reposts) result.official.exact++;
        else result.wrong.push(`${uri}: official ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
        continue;
      }
      result.posts.expected++;
      const got = byId.get(uri);
      result.likes.counted += got?.likes ?? 0;
      result.reposts.counted += got?.reposts ?? 0;
      const exact =
        got &&
        got.likes === want.likes &&
        got.reposts === want.reposts &&
        got.replies === want.replies &&
        got.quotes === want.quotes;
      if (exact) result.posts.exact++;
      else if (result.wrong.length < 20)
        result.wrong.push(`${uri}: ${got ? JSON.stringify(got) : 'not stored'} ≠ ${JSON.stringify(want)}`);
    }
    result.strays =
      posts.filter((p) => !meta.expected[p.id]).length +
      records.filter((r) => !meta.expected[r.subject_id]).length;
    return result;
  } finally {
    await handle.close();
  }
}
